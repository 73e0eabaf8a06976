package facts

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

const across = `
class Manager:
    def send(self, req):
        if not self.descs:
            return
        if req.kind is None:
            raise ValueError("kind")
        self._send_mla(req)

    def send_unchecked(self, req):
        self._send_mla(req)

    def _send_mla(self, r):
        layers = len(self.descs[0])
        use(r.kind)

    def _check(self):
        if not self.descs:
            raise RuntimeError("KV memory descriptors are empty")

    def _log(self):
        if not self.descs:
            log("empty")

    def _rebinds(self, r):
        if r is None:
            raise ValueError()
        r = None

    def send_checked(self):
        self._check()
        first = self.descs[0]

    def send_logged(self):
        self._log()
        first = self.descs[0]
`

// funcs maps each method name to its definition.
func funcs(tree *syntax.Tree) map[string]syntax.NodeID {
	m := map[string]syntax.NodeID{}
	for _, r := range cfg.Roots(tree) {
		if tree.Kind(r) == syntax.FunctionDefinition {
			m[tree.Text(tree.Field(r, syntax.FName))] = r
		}
	}
	return m
}

// nodeIn is the last node with text s inside fn.
func nodeIn(t *testing.T, tree *syntax.Tree, fn syntax.NodeID, s string) syntax.NodeID {
	t.Helper()
	n := syntax.NoNode
	for i := fn; i < tree.SubtreeEnd(fn); i++ {
		if tree.IsNamed(i) && tree.TextIs(i, s) {
			n = i
		}
	}
	require.NotEqual(t, syntax.NoNode, n, s)
	return n
}

func analyzeFunc(tree *syntax.Tree, fn syntax.NodeID, opts Options) *Result {
	return Analyze(tree, cfg.New(tree, fn), opts)
}

// A guard in the caller reaches the callee as entry facts.
func TestCallerGuardReachesCallee(t *testing.T) {
	tree := syntaxtest.Parse(t, across)
	fn := funcs(tree)
	use := nodeIn(t, tree, fn["_send_mla"], "self.descs[0]")
	kind := nodeIn(t, tree, fn["_send_mla"], "use(r.kind)")

	entry := func(caller string) []Fact {
		r := analyzeFunc(tree, fn[caller], Options{})
		call := nodeIn(t, tree, fn[caller], "self._send_mla(req)")
		// Caller names: self -> self, req -> r (the callee's parameter).
		return Rebase(Restrict(r.At(call), "self", "req"), "req", "r")
	}

	r := analyzeFunc(tree, fn["_send_mla"], Options{EntryFacts: entry("send")})
	assert.True(t, r.Holds(use, NonEmptyFact("self.descs")))
	assert.True(t, r.Holds(kind, NotNoneFact("r.kind")))

	r = analyzeFunc(tree, fn["_send_mla"], Options{EntryFacts: entry("send_unchecked")})
	assert.False(t, r.Holds(use, NonEmptyFact("self.descs")))
	assert.False(t, r.Holds(kind, NotNoneFact("r.kind")))
}

// A callee that raises when the state is empty guards its caller.
func TestCalleeCheckGuardsCaller(t *testing.T) {
	tree := syntaxtest.Parse(t, across)
	fn := funcs(tree)
	summary := func(name string) []Fact {
		return analyzeFunc(tree, fn[name], Options{}).ExitFacts("self")
	}
	assert.Contains(t, summary("_check"), NonEmptyFact("self.descs"))
	assert.Empty(t, summary("_log"))
	assert.Empty(t, analyzeFunc(tree, fn["_rebinds"], Options{}).ExitFacts("self", "r"), "r is rebound")

	effects := func(c syntax.NodeID) []Fact {
		f := tree.Field(c, syntax.FFunction)
		if tree.Kind(f) != syntax.Attribute || !tree.TextIs(tree.Field(f, syntax.FObject), "self") {
			return nil
		}
		callee, ok := fn[tree.Text(tree.Field(f, syntax.FAttribute))]
		if !ok {
			return nil
		}
		return analyzeFunc(tree, callee, Options{}).ExitFacts("self")
	}
	for caller, want := range map[string]bool{"send_checked": true, "send_logged": false} {
		r := analyzeFunc(tree, fn[caller], Options{CallEffects: effects})
		use := nodeIn(t, tree, fn[caller], "self.descs[0]")
		assert.Equal(t, want, r.Holds(use, NonEmptyFact("self.descs")), caller)
	}
}

func TestRestrictRebase(t *testing.T) {
	fs := []Fact{
		NonEmptyFact("self.descs"), InFact("self.t", "req.room"), InFact("self.t", "local"),
		InFact("self.t", "'lit'"), {Kind: IsInstance, Path: "req", Other: "Foo"},
		{Kind: Alias, Path: "d", Other: "self.descs"},
	}
	got := Restrict(fs, "self", "req")
	assert.Equal(t, []Fact{fs[0], fs[1], fs[3], fs[4]}, got)
	assert.Equal(t, []Fact{
		NonEmptyFact("mgr.descs"), InFact("mgr.t", "r.room"), InFact("mgr.t", "'lit'"), {Kind: IsInstance, Path: "r", Other: "Foo"},
	}, Rebase(Rebase(got, "self", "mgr"), "req", "r"))
}
