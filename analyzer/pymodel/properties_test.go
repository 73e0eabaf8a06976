package pymodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/facts"
)

func TestPropertyAliases(t *testing.T) {
	ix, fl := flowProject(t, map[string]string{"m.py": `
import functools

class Base:
    @property
    def descs(self):
        """The registered descriptors."""
        return self.kv_mem_descs

    @property
    def computed(self):
        return list(self.kv_mem_descs)

    @functools.cached_property
    def cached(self):
        return self.kv_mem_descs

    @property
    def logged(self):
        log(self)
        return self.kv_mem_descs

class Mgr(Base):
    def send(me):
        return me.descs[0], me.computed[0], me.cached[0], me.logged[0]

    def other(me):
        return me.kv_mem_descs
`})
	send, ok := ix.FuncByName("m.Mgr.send")
	require.True(t, ok)
	assert.Equal(t, []facts.Fact{{Kind: facts.Alias, Path: "me.descs", Other: "me.kv_mem_descs"}}, fl.PropertyAliases(send),
		"only a @property getter that returns a self path, inherited, in the function's own names")
	other, ok := ix.FuncByName("m.Mgr.other")
	require.True(t, ok)
	assert.Empty(t, fl.PropertyAliases(other), "a function that reads no property")
}
