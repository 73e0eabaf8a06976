package passes

import (
	"testing"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/syntax"
)

// probe reports each sink(p) call where `p is not None` is not known: a
// minimal rule showing how rules reach the engine through pass.ResultOf.
var probe = &analyzer.Rule{
	ID:       "SGL999",
	Name:     "facts-probe",
	Title:    "test rule: sink argument may be None",
	Doc:      "Test only.",
	Requires: []*analyzer.Analysis{Facts},
	Run: func(pass *analyzer.Pass) error {
		res, err := pass.ResultOf(Facts)
		if err != nil {
			return err
		}
		ff := res.(*facts.FileFacts)
		t := pass.File.Tree
		for i := 0; i < t.Len(); i++ {
			n := syntax.NodeID(i)
			if t.Kind(n) != syntax.Call || !t.TextIs(t.Field(n, syntax.FFunction), "sink") {
				continue
			}
			arg := t.NamedChild(t.Field(n, syntax.FArguments), 0)
			p, ok := facts.PathOf(t, arg)
			if !ok {
				continue
			}
			if !ff.For(n).Holds(n, facts.NotNoneFact(p)) {
				pass.Reportf(n, "%s may be None here", p)
			}
		}
		return nil
	},
}

func TestAnalysisThroughPass(t *testing.T) {
	analysistest.Run(t, "testdata/probe", probe)
}
