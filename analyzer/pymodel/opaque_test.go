package pymodel

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/syntax"
)

var opaqueSrc = map[string]string{
	"state.py": `
_GROUP = None

def get_group():
    assert _GROUP is not None
    return _GROUP

def is_ready():
    return _GROUP is not None
`,
	"m.py": `
from state import get_group, is_ready

class Mgr:
    def __init__(self, ptrs):
        self.group = get_group()
        if not ptrs:
            raise ValueError("no buffers")
        self.ptrs = ptrs
        if not is_ready():
            return

    def closure(self):
        def inner():
            return self.ptrs
        return inner
`,
}

// A function with neither parameters nor self exports no facts: its
// callers' analysis does not read its file's tree, which is read (and the
// function analysed) only when its own facts are asked for.
func TestFlowLeavesExportlessFunctionsUnread(t *testing.T) {
	ix, paths, trees := indexWithTrees(t, opaqueSrc)
	var mu sync.Mutex
	read := map[string]int{}
	fl := NewFlow(ix, func(fi int32) *syntax.Tree {
		mu.Lock()
		read[paths[fi]]++
		mu.Unlock()
		return trees[fi]
	}, nil)

	init := mustFunc(t, ix, "m.Mgr.__init__")
	assert.Contains(t, fl.Post(init), facts.NonEmptyFact("self.ptrs"), "the constructor's own check still counts")
	assert.Zero(t, read["state.py"], "get_group and is_ready export nothing: state.py is not read")
	assert.Nil(t, fl.Post(mustFunc(t, ix, "state.get_group")))

	// Asked for, the getter is analysed like any function.
	get := mustFunc(t, ix, "state.get_group")
	require.NotNil(t, fl.Graph(get))
	res := fl.Facts(get)
	require.NotNil(t, res)
	assert.Positive(t, read["state.py"])
	assert.Same(t, res, fl.Analyze(get, nil))

	// A nested function reading its method's self is not such a function.
	inner := mustFunc(t, ix, "m.Mgr.closure.inner")
	assert.False(t, fl.exportsNone(inner))
	assert.True(t, fl.exportsNone(mustFunc(t, ix, "state.is_ready")))
}
