package checker

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadAtMost(t *testing.T) {
	data := strings.Repeat("0123456789", 300) // 3000 bytes
	for _, c := range []struct {
		name        string
		hint, limit int64
		want        int
	}{
		{"exact hint", 3001, 10000, 3000},
		{"small hint grows", 1, 10000, 3000},
		{"hint too big", 1 << 20, 10000, 3000},
		{"limit stops the read", 3001, 100, 100},
		{"limit one past the size", 512, 3001, 3000},
	} {
		got, err := readAtMost(iotest.OneByteReader(strings.NewReader(data)), c.hint, c.limit)
		require.NoError(t, err, c.name)
		assert.Equal(t, data[:c.want], string(got), c.name)
		got, err = readAtMost(bytes.NewReader([]byte(data)), c.hint, c.limit)
		require.NoError(t, err, c.name)
		assert.Equal(t, data[:c.want], string(got), c.name)
	}
	_, err := readAtMost(iotest.ErrReader(iotest.ErrTimeout), 10, 100)
	assert.ErrorIs(t, err, iotest.ErrTimeout)
}
