package facts

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

// A tuple key is one key: `(a, b) in t` guards `t[a, b]` and `t[(a, b)]`,
// not `t[b, a]`.
func TestTupleKeys(t *testing.T) {
	tree := syntaxtest.Parse(t, `
def f(t, a, b):
    if (a, b) not in t:
        return
    x = t[a, b]
    y = t[(a, b)]
    z = t[b, a]
`)
	def := tree.NamedChild(tree.Root(), 0)
	r := analyzeFunc(tree, def, Options{})
	at := func(src string) syntax.NodeID {
		for i := 0; i < tree.Len(); i++ {
			if n := syntax.NodeID(i); tree.Kind(n) == syntax.Subscript && tree.TextIs(n, src) {
				return n
			}
		}
		t.Fatalf("no %s", src)
		return syntax.NoNode
	}
	in := InFact("t", "(a,b)")
	assert.True(t, r.Holds(at("t[a, b]"), in))
	assert.True(t, r.Holds(at("t[(a, b)]"), in))
	p, ok := PathOf(tree, at("t[(a, b)]"))
	assert.True(t, ok)
	assert.Equal(t, Path("t[(a,b)]"), p)
	p, _ = PathOf(tree, at("t[b, a]"))
	assert.Equal(t, Path("t[(b,a)]"), p, "another key")
}
