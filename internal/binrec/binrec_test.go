package binrec

import (
	"encoding/binary"
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
