package cfg

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

func TestLocate(t *testing.T) {
	tree := syntaxtest.Parse(t, `def f(x, d=make()):
    def g(y=x.a):
        return y.b
    if x.c and x.d:
        h = lambda: x.e
    try:
        pass
    finally:
        x.f()
`)
	f := findText(t, tree, "f")
	require.Equal(t, syntax.FunctionDefinition, tree.Kind(tree.Parent(f)))
	outer := New(tree, tree.Parent(f))
	gdef := tree.Parent(findText(t, tree, "g"))
	inner := New(tree, gdef)

	// A default value runs in the enclosing scope.
	assert.Empty(t, outer.Locate(findText(t, tree, "make()")))
	assert.Len(t, outer.Locate(findText(t, tree, "x.a")), 1)
	// A nested body belongs to its own graph only.
	assert.Empty(t, outer.Locate(findText(t, tree, "y.b")))
	require.Len(t, inner.Locate(findText(t, tree, "y.b")), 1)
	assert.Equal(t, syntax.ReturnStatement, tree.Kind(inner.Locate(findText(t, tree, "y.b"))[0].Node))
	assert.Equal(t, gdef, Owner(tree, findText(t, tree, "y.b")))
	assert.Equal(t, tree.Parent(f), Owner(tree, findText(t, tree, "x.a")))
	assert.Equal(t, tree.Root(), Owner(tree, findText(t, tree, "make()")))

	// The right operand of `and` is evaluated in its own block, after the
	// left's true edge.
	c, d := outer.Locate(findText(t, tree, "x.c")), outer.Locate(findText(t, tree, "x.d"))
	require.Len(t, c, 1)
	require.Len(t, d, 1)
	assert.NotEqual(t, c[0].Block, d[0].Block)
	assert.True(t, outer.Dominates(c[0].Block, d[0].Block))
	preds := outer.Preds(d[0].Block)
	require.Len(t, preds, 1)
	assert.Equal(t, findText(t, tree, "x.c"), preds[0].Cond)
	assert.True(t, preds[0].Value)

	// A lambda body is not the enclosing graph's; the assignment is.
	assert.Empty(t, outer.Locate(findText(t, tree, "x.e")))
	assert.Len(t, outer.Locate(findText(t, tree, "h = lambda: x.e")), 1)

	// A finally body is copied onto the normal and the exceptional path.
	assert.Len(t, outer.Locate(findText(t, tree, "x.f()")), 2)

	// A compound statement is located where its evaluation starts.
	ifs := tree.Ancestor(findText(t, tree, "x.c"), syntax.IfStatement)
	s := outer.Locate(ifs)
	require.Len(t, s, 1)
	assert.Equal(t, c[0].Block, s[0].Block)
	assert.Equal(t, c[0].Index, s[0].Index)
}

func TestDominance(t *testing.T) {
	tree := syntaxtest.Parse(t, `def f(a):
    if a.ok:
        x()
    else:
        y()
    z()
`)
	g := New(tree, tree.Parent(findText(t, tree, "f")))
	at := func(s string) Site { return g.Locate(findText(t, tree, s))[0] }
	x, y, z := at("x()"), at("y()"), at("z()")
	assert.False(t, g.Dominates(x.Block, z.Block))
	assert.False(t, g.Dominates(y.Block, z.Block))
	assert.True(t, g.Dominates(Entry, z.Block))
	assert.Equal(t, Entry, g.Idom(z.Block))
	assert.True(t, g.SiteDominates(at("a.ok"), z))
	assert.False(t, g.SiteDominates(z, at("a.ok")))
	assert.False(t, g.Reachable(Raise))
}

// checkInvariants verifies the structure every analysis relies on.
func checkInvariants(t testing.TB, g *Graph) {
	t.Helper()
	nb := BlockID(len(g.Blocks))
	npred := 0
	for i := range g.Blocks {
		b := BlockID(i)
		require.Equal(t, b, g.Blocks[i].ID)
		for _, e := range g.Succs(b) {
			require.Equal(t, b, e.From)
			require.True(t, e.To >= 0 && e.To < nb)
		}
		for _, e := range g.Preds(b) {
			require.Equal(t, b, e.To)
		}
		npred += len(g.Preds(b))
		for j, n := range g.Blocks[i].Nodes {
			found := false
			for _, s := range g.sitesOf(n) {
				found = found || (s.Block == b && int(s.Index) == j)
			}
			require.True(t, found, "node %d of b%d has no site", j, b)
		}
		if g.Reachable(b) && b != Entry {
			require.True(t, g.Dominates(g.Idom(b), b))
			require.True(t, g.Reachable(g.Idom(b)))
		}
	}
	require.Equal(t, len(g.Edges()), npred)
	require.Empty(t, g.Preds(Entry))
	require.Empty(t, g.Succs(Return))
	require.Empty(t, g.Succs(Raise))
	for i, s := range g.sites {
		require.True(t, i == 0 || g.sites[i-1].Node <= s.Node)
		require.True(t, s.Index >= 0 && int(s.Index) <= len(g.Blocks[s.Block].Nodes))
	}
}

func TestInvariantsOnGoldens(t *testing.T) {
	files, _ := filepath.Glob("testdata/cfg/*.py")
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		tree := syntaxtest.Parse(t, string(src))
		for _, r := range Roots(tree) {
			checkInvariants(t, New(tree, r))
		}
	}
}

func TestDegenerateInputs(t *testing.T) {
	for _, src := range []string{"", "\n", "def", "if", "try:\n", "x = (", "match x:\n case", "for x in", "while", "lambda: (", "class A(:\n pass", "def f():\n    try:\n        return\n    finally"} {
		tree := syntaxtest.Parse(t, src)
		for _, r := range Roots(tree) {
			checkInvariants(t, New(tree, r))
		}
		// Roots that are not scopes build an empty graph.
		if tree.Len() > 1 {
			checkInvariants(t, New(tree, 1))
		}
	}
}

func TestFinallyBudget(t *testing.T) {
	// try/finally nested in finally, deeply: duplication must stay bounded.
	src := "def f():\n"
	indent := "    "
	for i := 0; i < 40; i++ {
		src += indent + "try:\n" + indent + "    a()\n" + indent + "finally:\n"
		indent += "    "
	}
	src += indent + "b()\n"
	tree := syntaxtest.Parse(t, src)
	g := New(tree, tree.Parent(findText(t, tree, "f")))
	assert.Less(t, len(g.Blocks), 2*(minBudget+blocksPerNode*tree.Len()))
	checkInvariants(t, g)
}
