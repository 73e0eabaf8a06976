package binrec

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRoundTripAndTruncation(t *testing.T) {
	var out []byte
	out = binary.AppendUvarint(out, 300)
	out = binary.AppendVarint(out, -5)
	out = binary.LittleEndian.AppendUint64(out, 1<<40+7)
	out = binary.LittleEndian.AppendUint32(out, 9)
	out = append(out, 3)
	out = AppendString(out, "héllo")
	read := func(data []byte) *Reader {
		r := &Reader{S: string(data)}
		assert.Equal(t, uint64(300), r.Uvarint())
		assert.Equal(t, int64(-5), r.Varint())
		assert.Equal(t, uint64(1<<40+7), r.Uint64())
		assert.Equal(t, uint32(9), r.Uint32())
		assert.Equal(t, byte(3), r.Byte())
		assert.Equal(t, "héllo", r.Str())
		return r
	}
	assert.True(t, read(out).Done())
	for n := range len(out) {
		r := &Reader{S: string(out[:n])}
		r.Uvarint()
		r.Varint()
		r.Uint64()
		r.Uint32()
		r.Byte()
		r.Str()
		assert.False(t, r.Done(), "truncated at %d", n)
	}
}

// benchEntry is a replay record's entry: a path and its stamp.
type benchEntry struct {
	Path                     string
	Kind                     byte
	Dev, Ino                 uint64
	Size, Mtime, Ctime, Mode int64
}

func benchEntries() []benchEntry {
	es := make([]benchEntry, 2700) // lucifer1004's warm run checks about 2,700 paths
	for i := range es {
		es[i] = benchEntry{Path: fmt.Sprintf("python/sglang/srt/pkg%d/module_%d.py", i%50, i), Kind: 1,
			Dev: 2049, Ino: uint64(1e6 + i), Size: 12345, Mtime: 1.7335e18 + int64(i), Ctime: 1.7335e18, Mode: 0o644}
	}
	return es
}

// BenchmarkDecodeRecord reads a record of 2,700 entries with binrec, and
// the same entries as JSON, the codec it would otherwise be (issue 33:
// JSON costs about 4.1 ms, a fifth of a warm run; binrec 0.06 ms).
func BenchmarkDecodeRecord(b *testing.B) {
	es := benchEntries()
	b.Run("binrec", func(b *testing.B) {
		var out []byte
		for _, e := range es {
			out = AppendString(out, e.Path)
			out = append(out, e.Kind)
			for _, v := range []uint64{e.Dev, e.Ino, uint64(e.Size), uint64(e.Mtime), uint64(e.Ctime), uint64(e.Mode)} {
				out = binary.LittleEndian.AppendUint64(out, v)
			}
		}
		s := string(out)
		for b.Loop() {
			r := Reader{S: s}
			for range es {
				_ = r.Str()
				_ = r.Byte()
				for range 6 {
					_ = r.Uint64()
				}
			}
			if !r.Done() {
				b.Fatal("short record")
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		data, err := json.Marshal(es)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			var got []benchEntry
			if err := json.Unmarshal(data, &got); err != nil {
				b.Fatal(err)
			}
		}
	})
}
