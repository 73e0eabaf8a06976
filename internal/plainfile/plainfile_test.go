package plainfile

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
		got, err := ReadAtMost(iotest.OneByteReader(strings.NewReader(data)), c.hint, c.limit)
		require.NoError(t, err, c.name)
		assert.Equal(t, data[:c.want], string(got), c.name)
		got, err = ReadAtMost(bytes.NewReader([]byte(data)), c.hint, c.limit)
		require.NoError(t, err, c.name)
		assert.Equal(t, data[:c.want], string(got), c.name)
	}
	_, err := ReadAtMost(iotest.ErrReader(iotest.ErrTimeout), 10, 100)
	assert.ErrorIs(t, err, iotest.ErrTimeout)
}

func TestReadFileAsOSReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 513, 100_000} {
		path := filepath.Join(dir, fmt.Sprintf("f%d", size))
		data := bytes.Repeat([]byte("x"), size)
		require.NoError(t, os.WriteFile(path, data, 0o644))
		got, err := ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, data, got, "size %d", size)
	}

	_, err := ReadFile(filepath.Join(dir, "missing"))
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "open", pe.Op)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	_, oserr := os.ReadFile(filepath.Join(dir, "missing"))
	assert.Equal(t, oserr.Error(), err.Error(), "the message os.ReadFile gives")

	_, err = ReadFile(dir)
	require.ErrorAs(t, err, &pe, "a directory cannot be read")
	assert.Equal(t, dir, pe.Path)
}
