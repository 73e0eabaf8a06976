package atomicwrite

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFileNewAndReplace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	require.NoError(t, WriteFile(p, []byte("one"), 0o640))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm())

	require.NoError(t, os.Chmod(p, 0o755))
	require.NoError(t, WriteFile(p, []byte("two"), 0o600))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "two", string(b))
	fi, err = os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), fi.Mode().Perm(), "existing mode kept")

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left behind")
}

func TestWriteFileThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.py")
	link := filepath.Join(dir, "link.py")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	require.NoError(t, os.Symlink(target, link))
	require.NoError(t, WriteFile(link, []byte("new"), 0o644))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "link stays a link")
	b, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "new", string(b))
}

func TestWriteFileErrors(t *testing.T) {
	dir := t.TempDir()
	assert.Error(t, WriteFile(dir, []byte("x"), 0o644), "a directory is not replaced")
	assert.Error(t, WriteFile(filepath.Join(dir, "missing", "x"), []byte("x"), 0o644))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
}
