package facts

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/cfg"
)

// edgeOf finds the edge of g whose condition has text cond and value v.
func edgeOf(t *testing.T, r *Result, cond string, v bool) (cfg.BlockID, int) {
	t.Helper()
	g := r.Graph()
	for b := range g.Blocks {
		for i, e := range g.Succs(cfg.BlockID(b)) {
			if e.Cond >= 0 && g.Tree.TextIs(e.Cond, cond) && e.Value == v {
				return cfg.BlockID(b), i
			}
		}
	}
	t.Fatalf("no edge %q=%v", cond, v)
	return cfg.NoBlock, -1
}

func TestHoldsOnEdge(t *testing.T) {
	// At the join after `if kind is None: kind = other()` nothing is known
	// about kind, but on the edge that skips the body it is not None.
	_, n, r := analyzeAt(t, `
def f(table, key):
    kind = table.get(key)
    if kind is None:
        kind = other()
    sink(kind)
`, "sink(kind)", Options{})
	assert.False(t, r.Holds(n, notNone("kind")))
	b, i := edgeOf(t, r, "kind is None", false)
	assert.True(t, r.HoldsOnEdge(b, i, notNone("kind")))
	b, i = edgeOf(t, r, "kind is None", true)
	assert.False(t, r.HoldsOnEdge(b, i, notNone("kind")))
	assert.True(t, r.HoldsOnEdge(b, i, isNone("kind")))

	// Derived facts count: a truthy edge gives not None, through an alias too.
	_, _, r = analyzeAt(t, `
def f(info):
    kind = info.kind
    if kind:
        sink(kind)
`, "sink(kind)", Options{})
	b, i = edgeOf(t, r, "kind", true)
	assert.True(t, r.HoldsOnEdge(b, i, notNone("kind")))
	assert.True(t, r.HoldsOnEdge(b, i, notNone("info.kind")))

	// Out of range and unknown facts are false, never a panic.
	assert.False(t, r.HoldsOnEdge(-1, 0, notNone("kind")))
	assert.False(t, r.HoldsOnEdge(b, 99, notNone("kind")))
	assert.False(t, r.HoldsOnEdge(b, i, notNone("unknown")))
}

func TestHoldsOnExceptionEdge(t *testing.T) {
	// An exception may leave before the try body's binding completes.
	_, _, r := analyzeAt(t, `
def f(x):
    if x is None:
        return
    try:
        x = make()
        use(x)
    except ValueError:
        pass
`, "use(x)", Options{})
	g := r.Graph()
	found := false
	for b := range g.Blocks {
		for i, e := range g.Succs(cfg.BlockID(b)) {
			if e.Kind == cfg.Exception {
				found = true
				assert.False(t, r.HoldsOnEdge(cfg.BlockID(b), i, notNone("x")))
			}
		}
	}
	require.True(t, found)
}

func TestOnEdge(t *testing.T) {
	_, _, r := analyzeAt(t, `
def f(x, y):
    if x is not None and y:
        sink(x, y)
`, "sink(x, y)", Options{})
	b, i := edgeOf(t, r, "y", true)
	got := r.OnEdge(b, i)
	assert.Contains(t, got, notNone("x"))
	assert.Contains(t, got, notNone("y"))
	assert.Nil(t, r.OnEdge(b, 99))
}
