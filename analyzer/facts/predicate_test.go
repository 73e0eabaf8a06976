package facts

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

// analyzePredicate analyzes the function named name, or the lambda written
// exactly as name.
func analyzePredicate(t *testing.T, src, name string, opts Options) *Result {
	t.Helper()
	tree := syntaxtest.Parse(t, src)
	root := lastNode(t, tree, name)
	if tree.Kind(root) == syntax.Identifier {
		root = tree.Parent(root)
	}
	require.Contains(t, []syntax.Kind{syntax.FunctionDefinition, syntax.Lambda}, tree.Kind(root))
	return Analyze(tree, cfg.New(tree, root), opts)
}

func TestReturnFacts(t *testing.T) {
	src := `
def has(self, k):
    """Is k registered?"""
    # a comment
    return k in self.t and self.ready

def missing(self):
    return not self.descs

def steps(self, k):
    """Locals are read as what they were given."""
    found = k in self.t
    big = len(self.t) > 3
    return found and big

def mutates(self, k):
    found = k in self.t
    gone = self.t.clear()
    return found

def twice(self, k):
    found = k in self.t
    found = True
    return found

g = lambda x: x is not None
`
	r := analyzePredicate(t, src, "has", Options{})
	yes, ok := r.ReturnFacts(true)
	require.True(t, ok)
	assert.Contains(t, yes, in("self.t", "k"))
	assert.Contains(t, yes, nonEmpty("self.ready"))
	assert.Contains(t, yes, nonEmpty("self.t"), "implied by the membership")
	no, ok := r.ReturnFacts(false)
	require.True(t, ok)
	assert.Empty(t, no, "false: either operand may be false")

	r = analyzePredicate(t, src, "missing", Options{})
	yes, _ = r.ReturnFacts(true)
	no, _ = r.ReturnFacts(false)
	assert.Contains(t, yes, empty("self.descs"))
	assert.Contains(t, no, nonEmpty("self.descs"))

	r = analyzePredicate(t, src, "steps", Options{})
	yes, ok = r.ReturnFacts(true)
	require.True(t, ok)
	assert.Contains(t, yes, in("self.t", "k"))
	for _, name := range []string{"mutates", "twice"} {
		r = analyzePredicate(t, src, name, Options{})
		yes, ok = r.ReturnFacts(true)
		require.True(t, ok)
		assert.NotContains(t, yes, in("self.t", "k"), "%s: a call between, or a local assigned twice: the local is not read as its test", name)
	}

	r = analyzePredicate(t, src, "lambda x: x is not None", Options{})
	yes, ok = r.ReturnFacts(true)
	require.True(t, ok)
	assert.Contains(t, yes, notNone("x"))
}

// A condition that calls a predicate learns what the hook says holds.
func TestCallTestsHook(t *testing.T) {
	src := `
def f(self, k):
    if not self.has(k):
        return
    sink(self.t[k])
`
	var asked []bool
	opts := Options{CallTests: func(call syntax.NodeID, truthy bool) []Fact {
		asked = append(asked, truthy)
		if truthy {
			return []Fact{in("self.t", "k")}
		}
		return nil
	}}
	_, n, r := analyzeAt(t, src, "sink(self.t[k])", opts)
	assert.True(t, r.Holds(n, in("self.t", "k")))
	assert.ElementsMatch(t, []bool{true, false}, asked, "both edges of the test")

	_, n, r = analyzeAt(t, src, "sink(self.t[k])", Options{})
	assert.False(t, r.Holds(n, in("self.t", "k")), "without the hook nothing is known")
}

// Every way a function returns counts: a lock or a log call around the
// returned test, several returns of constants after checks. Each with a
// twin that must not count.
func TestReturnFactsOfEveryReturn(t *testing.T) {
	src := `
def locked(self, k):
    with self.lock:
        return k in self.t

def logged(self, k):
    log.debug("looking up %s", k)
    return k in self.t

def branchy(self, k):
    if k in self.t:
        return True
    return False

def early_false(self, info):
    if info.kind is None:
        log.warning("no kind yet")
        return False
    return True

def falls_off(self, k):
    if k in self.t:
        return True

def lenient(self, k):
    if k in self.t:
        return True
    return self.loose

def rebinds(self, k):
    k = normalize(k)
    return k in self.t

def cleared(self, k):
    found = k in self.t
    self.t.clear()
    return found

def generator(self, k):
    yield k in self.t

async def coro(self, k):
    return k in self.t

def never(self, k):
    raise RuntimeError(k)

def in_finally(self, k):
    try:
        if k in self.t:
            return True
    finally:
        self.done = True
    return False
`
	truthy := func(name string) ([]Fact, bool) {
		return analyzePredicate(t, src, name, Options{}).ReturnFacts(true)
	}
	falsy := func(name string) ([]Fact, bool) {
		return analyzePredicate(t, src, name, Options{}).ReturnFacts(false)
	}
	for _, name := range []string{"locked", "logged", "branchy", "falls_off"} {
		yes, ok := truthy(name)
		require.True(t, ok, name)
		assert.Contains(t, yes, in("self.t", "k"), name)
	}
	for _, name := range []string{"locked", "logged", "branchy"} {
		no, _ := falsy(name)
		assert.Contains(t, no, notIn("self.t", "k"), name)
	}
	yes, _ := truthy("early_false")
	assert.Contains(t, yes, notNone("info.kind"), "the only truthy return follows the check")
	no, _ := falsy("early_false")
	assert.NotContains(t, no, notNone("info.kind"))

	yes, _ = truthy("lenient")
	assert.NotContains(t, yes, in("self.t", "k"), "the second return may be truthy without the key")
	for _, name := range []string{"rebinds", "cleared"} {
		yes, ok := truthy(name)
		require.True(t, ok, name)
		assert.NotContains(t, yes, in("self.t", "k"), name)
	}
	for _, name := range []string{"generator", "coro", "never"} {
		_, ok := truthy(name)
		assert.False(t, ok, "%s: its call does not return its value", name)
	}
	yes, _ = truthy("in_finally")
	assert.Contains(t, yes, in("self.t", "k"), "the finally copy on the return's path keeps the state; the value is unknown, the other return falsy")
}
