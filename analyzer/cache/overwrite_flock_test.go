//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package cache

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// A writer that finds an entry's file locked by another (here the test,
// holding the lock while it leaves the file damaged) neither waits nor
// writes into it: it renames a whole entry into place, and the holder's
// later bytes go to a file no longer there.
func TestOverwriteOfALockedEntry(t *testing.T) {
	s, err := Open(t.TempDir(), "e1")
	require.NoError(t, err)
	k := NewKey([]byte("k"))
	require.NoError(t, s.Put(k, []byte("first")))
	f, err := os.OpenFile(s.path(k), os.O_WRONLY, 0)
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, unix.Flock(int(f.Fd()), unix.LOCK_EX))
	before, err := os.Stat(s.path(k))
	require.NoError(t, err)

	require.NoError(t, s.Put(k, []byte("second")), "returns while the lock is held")
	_, err = f.WriteAt([]byte("damage"), 0)
	require.NoError(t, err)
	assert.Equal(t, []byte("second"), s.Get(k))
	after, err := os.Stat(s.path(k))
	require.NoError(t, err)
	assert.False(t, os.SameFile(before, after), "a new file, renamed into place")
}
