package pymodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOwnerOf(t *testing.T) {
	ix, _ := flowProject(t, map[string]string{"m.py": `
class Manager:
    def __init__(self):
        self.table = {}

class Sender:
    def __init__(self, mgr: Manager, other):
        self.kv_mgr = mgr
        self.other = other
        self.built = Manager()

    def send(self):
        return self.kv_mgr.table, self.other.table, self.built.table
`})
	send, ok := ix.FuncByName("m.Sender.send")
	require.True(t, ok)
	mgr, ok := ix.ClassByName("m.Manager")
	require.True(t, ok)
	sender, ok := ix.ClassByName("m.Sender")
	require.True(t, ok)
	for _, p := range []string{"self.kv_mgr.table", "self.built.table"} {
		c, attr, ok := ix.OwnerOf(send, p)
		require.True(t, ok, p)
		assert.Equal(t, mgr, c, p)
		assert.Equal(t, "table", attr)
	}
	c, attr, ok := ix.OwnerOf(send, "self.other")
	require.True(t, ok)
	assert.Equal(t, sender, c)
	assert.Equal(t, "other", attr)
	_, _, ok = ix.OwnerOf(send, "self.other.table")
	assert.False(t, ok, "an untyped attribute")
	_, _, ok = ix.OwnerOf(send, "self")
	assert.False(t, ok, "no attribute")
}
