//go:build linux

package discover

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A listing holds the directory's names, sorted, with their types, the
// directory's own identity, and a stat of the regular Python files only
// (the walk and the cache's stamps rely on them); a missing directory is an
// open error.
func TestListingReadsOneDirectory(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("x = 1\n"), 0o640))
	}
	write("a.py")
	write("notes.txt")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "pkg"), 0o755))
	require.NoError(t, os.Symlink("a.py", filepath.Join(dir, "link.py")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe.py"), 0o600))
	require.NoError(t, os.Chmod(filepath.Join(dir, "pkg"), 0o755|os.ModeSticky))

	var l listing
	l.read(dir)
	require.NoError(t, l.openErr)
	require.NoError(t, l.statErr)
	require.NoError(t, l.readErr)
	want, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, l.entries, len(want))
	for i, e := range l.entries {
		assert.Equal(t, want[i].Name(), e.name, "sorted by name")
		assert.Equal(t, want[i].Type(), e.typ, e.name)
	}
	// Only the regular Python file is stat'ed with the listing.
	var statted []string
	for _, e := range l.entries {
		if e.info != nil {
			statted = append(statted, e.name)
		}
	}
	assert.Equal(t, []string{"a.py"}, statted)

	di, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, di.Mode(), l.info.Mode())
	assert.Equal(t, keyOf(dir, di), keyOf(dir, l.info))

	var missing listing
	missing.read(filepath.Join(dir, "nope"))
	assert.ErrorIs(t, missing.openErr, os.ErrNotExist)
}
