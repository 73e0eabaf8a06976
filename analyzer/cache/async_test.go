package cache

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A payload given to PutLater is what Get returns at once, and what is on
// disk after Wait, however many times the key was written meanwhile.
func TestPutLater(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, "e1")
	require.NoError(t, err)
	k, other := NewKey([]byte("k")), NewKey([]byte("other"))
	require.NoError(t, s.Put(k, []byte("on disk")))
	for i := range 50 {
		s.PutLater(k, fmt.Appendf(nil, "payload %d", i))
		s.PutLater(other, fmt.Appendf(nil, "other %d", i))
		assert.Equal(t, fmt.Sprintf("payload %d", i), string(s.Get(k)), "read your writes")
	}
	got := s.Get(k)
	got[0] = 'X' // a copy: the pending payload stays as given
	assert.Equal(t, "payload 49", string(s.Get(k)))
	s.Wait()
	assert.Nil(t, s.pending, "nothing pending after Wait")

	// Another store on the directory reads the files themselves.
	s2, err := Open(dir, "e1")
	require.NoError(t, err)
	assert.Equal(t, "payload 49", string(s2.Get(k)), "the last payload is the one left")
	assert.Equal(t, "other 49", string(s2.Get(other)))

	ro, err := OpenReadOnly(dir, "e1")
	require.NoError(t, err)
	ro.PutLater(k, []byte("never"))
	assert.Equal(t, "payload 49", string(ro.Get(k)), "a read-only store keeps nothing pending")
	ro.Wait()
	assert.Equal(t, "payload 49", string(s2.Get(k)), "a read-only store writes nothing")
	leftovers, err := filepath.Glob(filepath.Join(s.Dir(), "*", ".tmp-*"))
	require.NoError(t, err)
	assert.Empty(t, leftovers, "every background write renamed its file into place")
}
