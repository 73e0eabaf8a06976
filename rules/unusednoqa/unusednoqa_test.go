package unusednoqa

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/syntax"
)

// callRule reports calls to send (SGL990); otherRule never reports (SGL991).
var (
	callRule = &analyzer.Rule{ID: "SGL990", Name: "send-call", Title: "t", Doc: "d",
		Run: func(pass *analyzer.Pass) error {
			t := pass.File.Tree()
			for i := 0; i < t.Len(); i++ {
				if n := syntax.NodeID(i); t.Kind(n) == syntax.Call && t.TextIs(t.Field(n, syntax.FFunction), "send") {
					pass.Reportf(n, "call to send")
				}
			}
			return nil
		}}
	otherRule = &analyzer.Rule{ID: "SGL991", Name: "quiet", Title: "t", Doc: "d",
		Run: func(*analyzer.Pass) error { return nil }}
	offRule = &analyzer.Rule{ID: "SGL992", Name: "not-run", Title: "t", Doc: "d",
		Run: func(*analyzer.Pass) error { return nil }}
)

func check(t *testing.T, src string, ran ...*analyzer.Rule) []string {
	t.Helper()
	res := checker.Run([]checker.Input{{Path: "a.py", Src: []byte(src), Report: true}},
		checker.Options{Rules: ran, Jobs: 1})
	assert.Empty(t, res.Problems)
	var out []string
	for _, d := range Check(res.Noqa, ran, []*analyzer.Rule{callRule, otherRule, offRule, Rule}) {
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s", d.Start.Line, d.Start.Column, d.End.Line, d.End.Column, d.Message))
	}
	return out
}

func TestUnusedNoqa(t *testing.T) {
	ran := []*analyzer.Rule{callRule, otherRule, Rule}
	src := `send(1)  # noqa: SGL990
send(2)  # noqa: SGL990, SGL991
x = 1  # noqa: SGL990
y = 1  # noqa
z = 1  # noqa: E501, SGL992
w = 1  # noqa: SGL999
v = 1  # noqa: SGL990, SGL100
u = 1  # noqa: later
`
	assert.Equal(t, []string{
		"2:10-2:32 unused `noqa` code SGL991",
		"3:8-3:22 unused `noqa` code SGL990",
		"6:8-6:22 unknown rule code SGL999",
	}, check(t, src, ran...), "used codes, bare noqa, other linters' codes, rules not run, and SGL100 itself are not reported")

	assert.Equal(t, []string{"1:1-1:15 unused `sglint: noqa` directive: it suppresses no finding in this file"},
		check(t, "# sglint: noqa\nx = 1\n", ran...))
	assert.Empty(t, check(t, "# sglint: noqa\nsend(1)\n", ran...))
	assert.Equal(t, []string{"1:1-1:31 unused `noqa` codes SGL990, SGL991"},
		check(t, "# sglint: noqa: SGL990, SGL991\nx = 1\n", ran...))
	assert.Empty(t, check(t, "# sglint: noqa: SGL100\nx = 1  # noqa: SGL990\n", ran...), "silenced file-wide")
}
