//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package cache

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// Writers of one entry take turns: a rewrite waits for the writer before
// it, so it is never cut into by another and the last one is whole. Here
// the writer before is the test, which holds the lock while it leaves the
// file damaged; the Put started meanwhile must write after it.
func TestOverwritesTakeTurns(t *testing.T) {
	s, err := Open(t.TempDir(), "e1")
	require.NoError(t, err)
	k := NewKey([]byte("k"))
	require.NoError(t, s.Put(k, []byte("first")))
	f, err := os.OpenFile(s.path(k), os.O_WRONLY, 0)
	require.NoError(t, err)
	require.NoError(t, unix.Flock(int(f.Fd()), unix.LOCK_EX))

	done := make(chan error)
	go func() { done <- s.Put(k, []byte("second")) }()
	// Without turns the Put would be done long before this write (a
	// slower machine only makes this test miss a regression, never fail).
	time.Sleep(50 * time.Millisecond)
	_, err = f.WriteAt([]byte("damage"), 0)
	require.NoError(t, err)
	require.NoError(t, f.Close()) // releases the lock
	require.NoError(t, <-done)
	assert.Equal(t, []byte("second"), s.Get(k), "the Put wrote after the writer before it")
}
