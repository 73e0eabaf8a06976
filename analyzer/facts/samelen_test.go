package facts

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

// Two lengths made equal: by a test that returns when they differ, or by
// cutting one to the other's length; a change of either forgets it.
func TestSameLen(t *testing.T) {
	tree := syntaxtest.Parse(t, `
def f(src, dst, other):
    if len(src) != len(dst):
        return
    use(src)
    src.append(1)
    use(dst)
    dst = other[: len(src)]
    use(other)
    src = src[1:len(dst)]
    use(src, dst)
`)
	def := tree.NamedChild(tree.Root(), 0)
	r := analyzeFunc(tree, def, Options{})
	at := func(src string) syntax.NodeID {
		for i := 0; i < tree.Len(); i++ {
			if n := syntax.NodeID(i); tree.Kind(n) == syntax.Call && tree.TextIs(n, src) {
				return n
			}
		}
		t.Fatalf("no %s", src)
		return syntax.NoNode
	}
	same := Fact{Kind: SameLen, Path: "dst", Other: "src"}
	assert.True(t, r.Holds(at("use(src)"), same), "the early return")
	assert.False(t, r.Holds(at("use(dst)"), same), "append changed src's length")
	assert.True(t, r.Holds(at("use(other)"), same), "dst cut to src's length")
	assert.False(t, r.Holds(at("use(src, dst)"), same), "a slice that starts at 1 is not a cut to the length")
	// An assert's failing test: the lengths differ.
	cmp := syntaxtest.Parse(t, "len(b) == len(a)\n")
	test := cmp.NamedChild(cmp.NamedChild(cmp.Root(), 0), 0)
	assert.Equal(t, []Fact{{Kind: DiffLen, Path: "a", Other: "b"}}, TestFacts(cmp, test, false))
}
