package syntax

import (
	"encoding/binary"
	"errors"
)

// A snapshot is what Reparse needs of a version of a file, kept where the
// version itself is not (a cache): its packed tree, its size, and a hash
// of each of its lines, which say where a new version differs. Hashes
// make the edit whole lines; a line whose hash collides with another
// (FNV-1a of 64 bits, with its length) would be taken as unchanged.
//
//	uvarint(len(packed)) packed uvarint(size) uvarint(lines) lines x 8 bytes (little endian)

var errSnapshot = errors.New("syntax: malformed snapshot")

// Snapshot returns the snapshot of the version src whose tree Pack gave
// as packed.
func Snapshot(packed, src []byte) []byte {
	n := 1
	for _, b := range src {
		if b == '\n' {
			n++
		}
	}
	out := make([]byte, 0, 3*binary.MaxVarintLen32+len(packed)+8*n)
	out = binary.AppendUvarint(out, uint64(len(packed)))
	out = append(out, packed...)
	out = binary.AppendUvarint(out, uint64(len(src)))
	k := 0
	lines(src, func([]byte) { k++ })
	out = binary.AppendUvarint(out, uint64(k))
	lines(src, func(line []byte) { out = binary.LittleEndian.AppendUint64(out, lineHash(line)) })
	return out
}

// SnapshotPacked returns the packed tree a snapshot holds, for Unpack.
func SnapshotPacked(snap []byte) ([]byte, error) {
	packed, _, _, err := readSnapshot(snap)
	return packed, err
}

func readSnapshot(snap []byte) (packed []byte, size int, hashes []byte, err error) {
	r := reader{b: snap}
	n := r.uvarint()
	if r.bad || n > uint64(len(r.b)) {
		return nil, 0, nil, errSnapshot
	}
	packed, r.b = r.b[:n], r.b[n:]
	sz := r.uvarint()
	k := r.uvarint()
	if r.bad || sz > 1<<31 || k > uint64(len(r.b))/8 || uint64(len(r.b)) != 8*k {
		return nil, 0, nil, errSnapshot
	}
	return packed, int(sz), r.b, nil
}

// ReparseSnapshot parses src, a new version of the file snap was taken
// of, as Reparse does. The result equals Parse(src).
func (p *Parser) ReparseSnapshot(snap, src []byte) (*Tree, error) {
	if packed, size, hashes, err := readSnapshot(snap); err == nil {
		if e, ok := lineDiff(hashes, size, src); ok {
			if nodes, clean, err := unpackNodes(size, packed); err == nil && clean && len(nodes) > 0 {
				if t := p.splice(nodes, e, src); t != nil {
					return t, nil
				}
			}
		}
	}
	return p.Parse(src)
}

// lineDiff is Diff by whole lines, against a version known by the hashes
// of its lines and its size.
func lineDiff(hashes []byte, size int, src []byte) (Edit, bool) {
	m := len(hashes) / 8
	old := func(i int) uint64 { return binary.LittleEndian.Uint64(hashes[8*i:]) }
	var starts []int // of src's lines
	var hs []uint64
	at := 0
	lines(src, func(line []byte) {
		starts = append(starts, at)
		hs = append(hs, lineHash(line))
		at += len(line)
	})
	starts = append(starts, len(src))
	n := len(hs)
	a := 0
	for a < min(m, n) && old(a) == hs[a] {
		a++
	}
	c := 0
	for c < min(m, n)-a && old(m-1-c) == hs[n-1-c] {
		c++
	}
	suffix := len(src) - starts[n-c]
	e := Edit{Start: starts[a], OldEnd: size - suffix, NewEnd: len(src) - suffix}
	return e, e.OldEnd >= e.Start && e.NewEnd >= e.Start
}
