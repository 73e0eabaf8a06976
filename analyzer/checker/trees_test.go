package checker_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/syntax"
)

// crossTreeRule reads the tree of every file of the project while checking
// one, as rules that follow calls into other files do.
var crossTreeRule = &analyzer.Rule{ID: "SGL903", Name: "cross", Run: func(p *analyzer.Pass) error {
	sum := 0
	for _, f := range p.Project.Files {
		t := f.Tree()
		sum += t.Len()
		for i := 0; i < t.Len(); i++ {
			if t.Kind(syntax.NodeID(i)) == syntax.Identifier {
				sum += len(t.Text(syntax.NodeID(i)))
			}
		}
	}
	p.ReportNode(p.File.Tree().Root(), fmt.Sprintf("project sum %d", sum))
	return nil
}}

// localRule sees no project: it runs while files load.
var localRule = &analyzer.Rule{ID: "SGL904", Name: "local", Local: true, Run: func(p *analyzer.Pass) error {
	p.ReportNode(p.File.Tree().Root(), fmt.Sprintf("local nodes %d, project %v", p.File.Tree().Len(), p.Project != nil))
	return nil
}}

// Trees dropped after loading are parsed again on demand, identically: the
// findings are those of a run that keeps every tree.
func TestDroppedTreesParseAgain(t *testing.T) {
	inputs := []checker.Input{
		src("a.py", "def f(x):\n    return g(x)\n"),
		src("b.py", "import a\nclass C:\n    def m(self):\n        return a.f(1)\n"),
		src("c.py", "x = [i for i in range(3)]  # c\n"),
	}
	rules := []*analyzer.Rule{crossTreeRule, localRule}
	for _, jobs := range []int{1, 3} {
		kept := checker.Run(inputs, checker.Options{Rules: rules, Jobs: jobs, KeepTrees: true})
		dropped := checker.Run(inputs, checker.Options{Rules: rules, Jobs: jobs})
		require.Empty(t, kept.Problems)
		require.Empty(t, dropped.Problems)
		assert.Equal(t, kept.Diagnostics, dropped.Diagnostics)
		assert.Len(t, dropped.Diagnostics, 6)
		assert.Equal(t, 0, kept.Stats.Reparsed+kept.Stats.Unpacked)
		assert.Equal(t, 3, dropped.Stats.Unpacked, "each dropped tree is unpacked once, however many passes ask")
		assert.Equal(t, 0, dropped.Stats.Reparsed)
	}
	res := checker.Run(inputs, checker.Options{Rules: []*analyzer.Rule{localRule}, Jobs: 2})
	assert.Equal(t, "local nodes 18, project false", res.Diagnostics[0].Message)
	assert.Equal(t, 0, res.Stats.Reparsed+res.Stats.Unpacked, "file-local rules run before trees are dropped")
	assert.Zero(t, res.Stats.Summarize, "no project rule: no file is summarised")
	assert.Zero(t, res.Stats.Pack, "no project rule: no tree is packed")

	res = checker.Run(inputs, checker.Options{Rules: rules, Jobs: 2})
	assert.Positive(t, res.Stats.Summarize)
	assert.Positive(t, res.Stats.Pack)
}

// A tree asked for after the run is still available.
func TestTreeAfterRun(t *testing.T) {
	var files []*analyzer.File
	keep := &analyzer.Rule{ID: "SGL905", Name: "keep", Run: func(p *analyzer.Pass) error {
		files = p.Project.Files
		return nil
	}}
	checker.Run([]checker.Input{src("a.py", "x = 1\n")}, checker.Options{Rules: []*analyzer.Rule{keep}, Jobs: 1})
	require.Len(t, files, 1)
	tr := files[0].Tree()
	assert.Equal(t, "x = 1", tr.Line(1))
	assert.Same(t, tr, files[0].Tree())
}

// ModelFile maps an index file back to its File.
func TestModelFile(t *testing.T) {
	checked := 0
	probe := &analyzer.Rule{ID: "SGL908", Name: "probe", Run: func(p *analyzer.Pass) error {
		for _, f := range p.Project.Files {
			if f.Model >= 0 {
				require.Same(t, f, p.Project.ModelFile(f.Model))
				checked++
			}
		}
		assert.Nil(t, p.Project.ModelFile(-1))
		assert.Nil(t, p.Project.ModelFile(int32(len(p.Project.Files))))
		return nil
	}}
	checker.Run([]checker.Input{src("a.py", "x = 1\n"), src("b.py", "def f(:\n"), src("c.py", "y = 2\n")},
		checker.Options{Rules: []*analyzer.Rule{probe}, Jobs: 1})
	assert.Equal(t, 9, checked)
}
