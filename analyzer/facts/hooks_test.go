package facts

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

func TestWaitCalls(t *testing.T) {
	src := `
def f(self, k):
    self.wait_for(lambda: k in self.table and self.table[k].ready, timeout=5)
    sink(self.table[k])
`
	_, n, r := analyzeAt(t, src, "sink(self.table[k])", Options{})
	assert.True(t, r.Holds(n, in("self.table", "k")))
	assert.True(t, r.Holds(n, nonEmpty("self.table[k].ready")))

	// Not a recognised wait: nothing learnt.
	_, n, r = analyzeAt(t, src, "sink(self.table[k])", Options{WaitCalls: []string{}})
	assert.False(t, r.Holds(n, in("self.table", "k")))

	// Configured names, dotted or not; keyword lambdas.
	src = `
def f(t, k):
    utils.poll_until(cond=lambda: k in t)
    sink(t[k])
`
	_, n, r = analyzeAt(t, src, "sink(t[k])", Options{WaitCalls: []string{"x.poll_until"}})
	assert.True(t, r.Holds(n, in("t", "k")))
	_, n, r = analyzeAt(t, src, "sink(t[k])", Options{})
	assert.False(t, r.Holds(n, in("t", "k")))

	// An `or` in the waited condition: only what both sides give.
	src = `
def f(t, k, x):
    wait_for(lambda: (k in t and x is not None) or (x is not None and x.done))
    sink(t[k])
`
	_, n, r = analyzeAt(t, src, "sink(t[k])", Options{})
	assert.False(t, r.Holds(n, in("t", "k")))
	assert.True(t, r.Holds(n, notNone("x")))
}

func TestEntryFacts(t *testing.T) {
	src := `
def send(self, req):
    sink(self.descs[0], req.kind)
    self.descs = []
    sink2(self.descs)
`
	opts := Options{EntryFacts: []Fact{nonEmpty("self.descs"), notNone("req.kind"), in("self.table", "req.room")}}
	tree, n, r := analyzeAt(t, src, "sink(self.descs[0], req.kind)", opts)
	assert.True(t, r.Holds(n, nonEmpty("self.descs")))
	assert.True(t, r.Holds(n, notNone("self.descs")), "derived from non-empty")
	assert.True(t, r.Holds(n, notNone("req.kind")))
	assert.True(t, r.Holds(n, in("self.table", "req.room")))
	n2 := lastNode(t, tree, "sink2(self.descs)")
	assert.False(t, r.Holds(n2, nonEmpty("self.descs")), "killed by the reassignment")
	assert.True(t, r.Holds(n2, empty("self.descs")))

	// Malformed paths are ignored, not fatal.
	_, n, r = analyzeAt(t, src, "sink(self.descs[0], req.kind)", Options{EntryFacts: []Fact{notNone("self..x"), notNone(""), in("t", "k]")}})
	assert.Empty(t, r.At(n))
}

func TestCallHooks(t *testing.T) {
	src := `
def send(self):
    if self.x is None:
        raise ValueError()
    self.check_ready()
    self.reset()
    sink(self.descs, self.x)
`
	tree := syntaxtest.Parse(t, src)
	n := lastNode(t, tree, "sink(self.descs, self.x)")
	g := cfg.New(tree, cfg.Owner(tree, n))
	calls := func(name string) func(syntax.NodeID) bool {
		return func(c syntax.NodeID) bool {
			fn := tree.Field(c, syntax.FFunction)
			return tree.Kind(fn) == syntax.Attribute && tree.TextIs(tree.Field(fn, syntax.FAttribute), name)
		}
	}
	isCheck, isReset := calls("check_ready"), calls("reset")
	var seen int
	opts := Options{
		CallEffects: func(c syntax.NodeID) []Fact {
			seen++
			if isCheck(c) {
				return []Fact{nonEmpty("self.descs")}
			}
			return nil
		},
	}
	r := Analyze(tree, g, opts)
	assert.True(t, r.Holds(n, nonEmpty("self.descs")))
	assert.True(t, r.Holds(n, notNone("self.x")))
	assert.Equal(t, 4, seen, "once per call node: ValueError(), check_ready, reset, sink")

	opts.CallKills = func(c syntax.NodeID) []Path {
		if isReset(c) {
			return []Path{"self.x"}
		}
		return nil
	}
	r = Analyze(tree, g, opts)
	assert.True(t, r.Holds(n, nonEmpty("self.descs")))
	assert.False(t, r.Holds(n, notNone("self.x")))

	r = Analyze(tree, g, Options{})
	assert.False(t, r.Holds(n, nonEmpty("self.descs")))
}

func TestAtExit(t *testing.T) {
	tree := syntaxtest.Parse(t, `
def check(self):
    if not self.descs:
        raise RuntimeError("KV memory descriptors are empty")
    if self.kind is None:
        return False
    return True

def never(self):
    raise NotImplementedError
`)
	defs := cfg.Roots(tree)
	require.Len(t, defs, 3)
	r := Analyze(tree, cfg.New(tree, defs[1]), Options{})
	assert.True(t, r.ExitReachable())
	exit := r.AtExit()
	assert.Contains(t, exit, nonEmpty("self.descs"))
	assert.Contains(t, exit, notNone("self.descs"))
	assert.NotContains(t, exit, notNone("self.kind"), "returns on both outcomes")

	r = Analyze(tree, cfg.New(tree, defs[2]), Options{})
	assert.False(t, r.ExitReachable())
	assert.Nil(t, r.AtExit())
}

func TestUnreachableAndForeign(t *testing.T) {
	tree, n, r := analyzeAt(t, `
def f(x):
    return 1
    sink(x)
`, "sink(x)", Options{})
	assert.False(t, r.Reachable(n))
	assert.True(t, r.Holds(n, notNone("x")), "vacuous in dead code")
	assert.Nil(t, r.At(n))
	// A node of another graph is neither reachable nor known.
	assert.False(t, r.Holds(tree.Root(), notNone("x")))
	assert.False(t, r.Reachable(tree.Root()))
}

func TestAtLists(t *testing.T) {
	_, n, r := analyzeAt(t, `
def f(self, k):
    v = self.t.get(k)
    if v is None:
        return
    sink(v)
`, "sink(v)", Options{})
	at := r.At(n)
	assert.Contains(t, at, Fact{Kind: GetOf, Path: "v", Key: "k", Other: "self.t"})
	assert.Contains(t, at, notNone("v"))
	assert.Contains(t, at, in("self.t", "k"))
	assert.Contains(t, at, nonEmpty("self.t"))
	for _, f := range at {
		assert.NotEmpty(t, f.String())
	}
}

func TestPathOf(t *testing.T) {
	tree := syntaxtest.Parse(t, `(self.a.b, t["k"], t['k'], (x), f().x, t[i + 1], t[a.b], t[0], t[1:2], d[k][j].v, t["a\n"])`)
	tests := map[string]string{
		"self.a.b": "self.a.b", `t["k"]`: "t['k']", "t['k']": "t['k']", "(x)": "x",
		"t[a.b]": "t[a.b]", "t[0]": "t[0]", "d[k][j].v": "d[k][j].v",
	}
	for text, want := range tests {
		p, ok := PathOf(tree, lastNode(t, tree, text))
		assert.True(t, ok, text)
		assert.Equal(t, Path(want), p, text)
	}
	for _, text := range []string{"f().x", "t[i + 1]", "t[1:2]", `t["a\n"]`} {
		_, ok := PathOf(tree, lastNode(t, tree, text))
		assert.False(t, ok, text)
	}
}

func TestPathMethods(t *testing.T) {
	assert.True(t, Path("self.a.b").HasPrefix("self.a"))
	assert.True(t, Path("self.a[k]").HasPrefix("self.a"))
	assert.True(t, Path("self.a").HasPrefix("self.a"))
	assert.False(t, Path("self.ab").HasPrefix("self.a"))
	p, ok := Path("self.a.b").Rebase("self", "mgr")
	assert.True(t, ok)
	assert.Equal(t, Path("mgr.a.b"), p)
	_, ok = Path("other.a").Rebase("self", "mgr")
	assert.False(t, ok)
	assert.Equal(t, "self", Path("self.a[k].b").Root())
	assert.True(t, Path("'k'").IsLiteral())
	assert.True(t, Path("0").IsLiteral())
	assert.False(t, Path("k").IsLiteral())
}

func TestStringPathsRoundTrip(t *testing.T) {
	var pt pathTable
	for _, s := range []Path{"x", "self.a.b", "t['k']", "t[0]", "d[k][j].v", "t[a.b[c]]", "t[None]"} {
		id, ok := pt.ofString(s)
		require.True(t, ok, s)
		assert.Equal(t, string(s), pt.str(id))
	}
	for _, s := range []Path{"", ".x", "x.", "t[k", "t[]", "x y", "t['k]"} {
		_, ok := pt.ofString(s)
		assert.False(t, ok, s)
	}
}

// A key found in one table is in the tables that cover it; a removal from
// the covered table does not remove it from the cover.
func TestKeyCovers(t *testing.T) {
	src := `
def send(self, ep, parts):
    sock = self.cache.get(ep)
    if sock is None:
        return None
    self.cache.pop(ep, None)
    return sink(self.locks[ep], self.other[ep])
`
	tree := syntaxtest.Parse(t, src)
	n := lastNode(t, tree, "sink(self.locks[ep], self.other[ep])")
	g := cfg.New(tree, cfg.Owner(tree, n))
	in := func(table string) Fact { return Fact{Kind: In, Path: Path(table), Key: "ep"} }

	r := Analyze(tree, g, Options{})
	assert.False(t, r.Holds(n, in("self.locks")))

	r = Analyze(tree, g, Options{KeyCovers: func(table Path) []Path {
		if table == "self.cache" {
			return []Path{"self.locks", "self.cache"}
		}
		return nil
	}})
	assert.True(t, r.Holds(n, in("self.locks")), "self.locks covers self.cache")
	assert.False(t, r.Holds(n, in("self.cache")), "popped")
	assert.False(t, r.Holds(n, in("self.other")))
}
