package checker_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/records"
)

// Raise sites are found while files load, in every loaded file (context
// ones included), in input order whatever the number of workers; rules
// see them on the project.
func TestRaiseSitesOnProject(t *testing.T) {
	set := records.NewSet([]*records.Record{
		{ID: "r1", ErrorClass: "RuntimeError", MessagePattern: "no plan for .*"},
		{ID: "r2", ErrorClass: "AssertionError", MessagePattern: "ring .*"},
	})
	inputs := []checker.Input{
		src("a.py", "def f(p):\n    if p is None:\n        raise RuntimeError(f\"no plan for {p}\")\n"),
		{Path: "ctx.py", Src: []byte("assert ring, 'ring %d' % i\n"), Report: false},
		src("b.py", "raise RuntimeError('no plan for x')\nraise ValueError('no plan for y')\n"),
	}
	var seen []string
	var gotSet *records.Set
	probe := &analyzer.Rule{ID: "SGL902", Name: "probe", Run: func(p *analyzer.Pass) error {
		if p.File.Path == "a.py" {
			for _, s := range p.Project.RaiseSites {
				seen = append(seen, s.File.Path+" "+s.Record.ID)
			}
			gotSet = p.Project.Records
		}
		return nil
	}}
	for _, jobs := range []int{1, 3} {
		seen = nil
		res := checker.Run(inputs, checker.Options{Rules: []*analyzer.Rule{probe}, Jobs: jobs, Records: set})
		require.Len(t, res.RaiseSites, 3)
		var got []string
		for _, s := range res.RaiseSites {
			got = append(got, s.File.Path+" "+s.Record.ID+" "+s.Template.String())
		}
		assert.Equal(t, []string{"a.py r1 no plan for …", "ctx.py r2 ring …", "b.py r1 no plan for x"}, got)
		assert.Equal(t, []string{"a.py r1", "ctx.py r2", "b.py r1"}, seen)
		assert.False(t, res.RaiseSites[1].File.Report)
		assert.Same(t, set, gotSet)
	}
	res := checker.Run(inputs, checker.Options{Rules: []*analyzer.Rule{probe}})
	assert.Empty(t, res.RaiseSites, "no records, no sites")
}
