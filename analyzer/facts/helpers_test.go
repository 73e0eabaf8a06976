package facts

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

// lastNode is the innermost node of the last occurrence of text s.
func lastNode(t testing.TB, tree *syntax.Tree, s string) syntax.NodeID {
	t.Helper()
	found := syntax.NoNode
	for i := 0; i < tree.Len(); i++ {
		n := syntax.NodeID(i)
		if tree.IsNamed(n) && tree.TextIs(n, s) {
			found = n
		}
	}
	require.NotEqual(t, syntax.NoNode, found, "no node %q", s)
	return found
}

// analyzeAt builds the graph that evaluates the last `at` in src and
// analyzes it.
func analyzeAt(t testing.TB, src, at string, opts Options) (*syntax.Tree, syntax.NodeID, *Result) {
	t.Helper()
	tree := syntaxtest.Parse(t, strings.TrimLeft(src, "\n"))
	n := lastNode(t, tree, at)
	g := cfg.New(tree, cfg.Owner(tree, n))
	return tree, n, Analyze(tree, g, opts)
}

func isNone(p Path) Fact   { return Fact{Kind: IsNone, Path: p} }
func notNone(p Path) Fact  { return Fact{Kind: NotNone, Path: p} }
func nonEmpty(p Path) Fact { return Fact{Kind: Truthy, Path: p} }
func empty(p Path) Fact    { return Fact{Kind: Falsy, Path: p} }
func in(t, k Path) Fact    { return Fact{Kind: In, Path: t, Key: k} }
func notIn(t, k Path) Fact { return Fact{Kind: NotIn, Path: t, Key: k} }
func inst(p, c Path) Fact  { return Fact{Kind: IsInstance, Path: p, Other: c} }
