package analyzer_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Two rules asking for the graph of the same function share one graph,
// and functions nobody asks about get none.
func TestCFGBuiltOnDemandAndShared(t *testing.T) {
	var seen []*cfg.Graph
	firstFunc := func(p *analyzer.Pass) error {
		tr := p.File.Tree
		for i := 0; i < tr.Len(); i++ {
			if n := syntax.NodeID(i); tr.Kind(n) == syntax.FunctionDefinition {
				g := p.CFG(n)
				require.Equal(t, n, g.Root)
				seen = append(seen, g)
				return nil
			}
		}
		return nil
	}
	r1 := &analyzer.Rule{ID: "SGL901", Name: "one", Requires: []*analyzer.Analysis{analyzer.CFG}, Run: firstFunc}
	r2 := &analyzer.Rule{ID: "SGL902", Name: "two", Requires: []*analyzer.Analysis{analyzer.CFG}, Run: firstFunc}
	code := "def f(x):\n    if x:\n        return 1\n\ndef g():\n    pass\n\ndef h():\n    pass\n"
	res := analyzer.Run([]analyzer.Input{src("a.py", code)}, analyzer.Options{Rules: []*analyzer.Rule{r1, r2}, Jobs: 1})
	require.Empty(t, res.Problems)
	require.Len(t, seen, 2)
	assert.Same(t, seen[0], seen[1])
	assert.Equal(t, 1, res.Stats.CFGs, "one graph for f; none for g, h or the module")
}
