package stamp

import (
	"encoding/binary"

	"github.com/sglint/sglint/internal/binrec"
)

// EncodedSize is the size of a stamp's encoding.
const EncodedSize = 5 * 8

// Append appends s's encoding, the layout of every record that keeps
// stamps: size, modification time, change time, inode and device, each a
// little-endian uint64.
func (s Stamp) Append(out []byte) []byte {
	for _, v := range [...]uint64{uint64(s.Size), uint64(s.Mtime), uint64(s.Ctime), s.Ino, s.Dev} {
		out = binary.LittleEndian.AppendUint64(out, v)
	}
	return out
}

// Read reads a stamp Append wrote (r.Bad if r runs out).
func Read(r *binrec.Reader) Stamp {
	return Stamp{Size: int64(r.Uint64()), Mtime: int64(r.Uint64()), Ctime: int64(r.Uint64()), Ino: r.Uint64(), Dev: r.Uint64()}
}
