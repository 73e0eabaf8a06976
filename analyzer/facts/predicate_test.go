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
		_, ok = r.ReturnFacts(true)
		assert.False(t, ok, "%s: a call between, or a local assigned twice: not a predicate", name)
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
