package stamp

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/internal/binrec"
)

func TestAppendRead(t *testing.T) {
	s := Stamp{Size: 12345, Mtime: -1, Ctime: 1 << 62, Ino: 1<<64 - 1, Dev: 7}
	b := s.Append([]byte("x"))
	assert.Len(t, b, 1+EncodedSize)
	r := binrec.Reader{S: string(b), Off: 1}
	assert.Equal(t, s, Read(&r))
	assert.True(t, r.Done())

	cut := binrec.Reader{S: string(b[:len(b)-1]), Off: 1}
	Read(&cut)
	assert.True(t, cut.Bad, "a cut stamp is bad")
}
