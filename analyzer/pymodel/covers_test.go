package pymodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/facts"
)

const coversSrc = `
import threading

class Conn:
    lock_count = 0

    def __init__(self, ctx):
        self.ctx = ctx
        self.cache = {}
        self.locks = {}
        self.names = {}
        self.lossy = {}
        self.guard = threading.Lock()

    def connect(self, ep):
        with self.guard:
            sock = self.cache.get(ep)
            if sock is not None:
                return sock
            sock = self.ctx.socket(ep)
            self.cache[ep] = sock
            self.locks.setdefault(ep, threading.Lock())
            self.lossy[ep] = 1
            return sock

    def name(self, ep, n):
        self.names[ep] = n

    def drop(self, ep):
        self.lossy.pop(ep, None)
`

func TestKeyCoversOfAClass(t *testing.T) {
	ix, fl := flowProject(t, map[string]string{"conn.py": coversSrc})
	c, ok := ix.ClassByName("conn.Conn")
	require.True(t, ok)
	assert.Equal(t, map[string][]string{"cache": {"locks"}, "locks": {"cache"}, "lossy": {"cache", "locks"}}, fl.covers(c),
		"locks and cache cover what is added beside them; nothing covers names (filled elsewhere); lossy covers nothing, it loses keys")

	fn, ok := ix.FuncByName("conn.Conn.connect")
	require.True(t, ok)
	assert.Contains(t, fl.Post(fn), facts.Fact{Kind: facts.In, Path: "self.locks", Key: "ep"},
		"the early return for a cached socket keeps the lock")
	assert.NotContains(t, fl.Post(fn), facts.Fact{Kind: facts.In, Path: "self.lossy", Key: "ep"})
}
