package analysistest_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
)

// boom reports every call of boom(...), with the call's text in the message.
var boom = &analyzer.Rule{
	ID: "SGL901", Name: "boom", Title: "calls boom", Doc: "test rule",
	Run: func(pass *analyzer.Pass) error {
		t := pass.File.Tree()
		for i := 0; i < t.Len(); i++ {
			n := syntax.NodeID(i)
			if t.Kind(n) == syntax.Call && t.TextIs(t.Field(n, syntax.FFunction), "boom") {
				pass.Reportf(n, "call of %s", t.Text(n))
			}
		}
		return nil
	},
}

// fakeT records failures instead of failing, so they can be asserted.
type fakeT struct {
	errors, fatals []string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, args...))
}

func dir(name string) string { return filepath.Join("testdata", name) }

func TestPassesWhenFindingsMatch(t *testing.T) {
	ft := &fakeT{}
	res := analysistest.Run(ft, dir("ok"), boom)
	assert.Empty(t, ft.errors)
	assert.Empty(t, ft.fatals)
	require.NotNil(t, res)
	assert.Len(t, res.Diagnostics, 6)
	assert.Equal(t, 1, res.Suppressed)

	// And with the real testing.T.
	analysistest.Run(t, dir("ok"), boom)
}

func TestFailsOnMissingFinding(t *testing.T) {
	ft := &fakeT{}
	analysistest.Run(ft, dir("missing"), boom)
	m := filepath.Join("testdata", "missing", "m.py")
	assert.Equal(t, []string{
		m + ":1: missing SGL901 finding",
		m + ":2: missing SGL901 finding",
	}, ft.errors)
}

func TestFailsOnUnexpectedFinding(t *testing.T) {
	ft := &fakeT{}
	analysistest.Run(ft, dir("unexpected"), boom)
	u := filepath.Join("testdata", "unexpected", "u.py")
	assert.Equal(t, []string{u + ":2:1: unexpected SGL901 finding: call of boom()"}, ft.errors)
}

func TestFailsWhenMessageDoesNotMatch(t *testing.T) {
	ft := &fakeT{}
	analysistest.Run(ft, dir("wrongmsg"), boom)
	w := filepath.Join("testdata", "wrongmsg", "w.py")
	assert.Equal(t, []string{
		w + ":1:1: unexpected SGL901 finding: call of boom()",
		w + `:1: missing SGL901 finding matching "bang"`,
	}, ft.errors)
}

func TestFailsOnWrongRule(t *testing.T) {
	other := *boom
	other.ID = "SGL902"
	ft := &fakeT{}
	analysistest.Run(ft, dir("wrongmsg"), &other)
	// The SGL901 want is not checked (SGL901 does not run); the SGL902
	// finding on its line is still unexpected.
	require.Len(t, ft.errors, 1)
	assert.Contains(t, ft.errors[0], "unexpected SGL902 finding")
}

func TestIgnoresWantsOfRulesNotRun(t *testing.T) {
	other := *boom
	other.ID = "SGL902"
	other.Run = func(*analyzer.Pass) error { return nil }
	ft := &fakeT{}
	analysistest.Run(ft, dir("missing"), &other)
	assert.Empty(t, ft.errors)
}

func TestBadWantComments(t *testing.T) {
	ft := &fakeT{}
	analysistest.Run(ft, dir("badwant"), boom)
	require.Len(t, ft.errors, 6, "%q", ft.errors) // 3 bad comments + 3 findings not expected
	assert.Contains(t, ft.errors[0], "b.py:1: bad want comment: expected a rule ID")
	assert.Contains(t, ft.errors[1], "b.py:2: bad want comment: unterminated regexp")
	assert.Contains(t, ft.errors[2], "b.py:3: bad want comment: error parsing regexp")
}

func TestFatalOnEmptyDir(t *testing.T) {
	ft := &fakeT{}
	res := analysistest.Run(ft, t.TempDir(), boom)
	assert.Nil(t, res)
	require.Len(t, ft.fatals, 1)
	assert.Contains(t, ft.fatals[0], "no .py files")
}

// RunWith passes run options (here records) through to the rules.
func TestRunWithOptions(t *testing.T) {
	set := records.NewSet([]*records.Record{{ID: "r", ErrorClass: "RuntimeError", MessagePattern: ".*"}})
	var got *records.Set
	probe := &analyzer.Rule{ID: "SGL902", Name: "probe", Title: "t", Doc: "d", Run: func(p *analyzer.Pass) error {
		got = p.Project.Records
		return nil
	}}
	ft := &fakeT{}
	res := analysistest.RunWith(ft, dir("ok"), checker.Options{Records: set, Rules: []*analyzer.Rule{boom}, Root: "elsewhere"}, probe)
	assert.Empty(t, ft.errors, "the harness's rules replace those of the options")
	assert.Same(t, set, got)
	require.NotNil(t, res)
	assert.Empty(t, res.Diagnostics)
}

// Findings returns what the rules find, wants or not: the "unexpected"
// fixture's finding is returned, and no failure is recorded.
func TestFindings(t *testing.T) {
	ft := &fakeT{}
	ds := analysistest.Findings(ft, dir("unexpected"), checker.Options{}, boom)
	assert.Empty(t, ft.errors)
	assert.Empty(t, ft.fatals)
	require.NotEmpty(t, ds)
	assert.Equal(t, "SGL901", ds[0].Rule.ID)

	ft = &fakeT{}
	assert.Nil(t, analysistest.Findings(ft, dir("no-such-dir"), checker.Options{}, boom))
	assert.NotEmpty(t, ft.fatals)
}

func TestWithOptions(t *testing.T) {
	type opts struct{ N int }
	assert.Nil(t, analysistest.WithOptions[opts](boom, nil).RuleOptions, "nil: the rule's defaults")
	o := &opts{N: 2}
	assert.Equal(t, map[string]any{"SGL901": o}, analysistest.WithOptions(boom, o).RuleOptions)
}

func TestDocBlock(t *testing.T) {
	doc := "# X\n\n## Example\n\nText.\n\n```python\nsend(x)\n```\n\n## Use instead\n\nNothing.\n"
	ft := &fakeT{}
	assert.Equal(t, "send(x)\n", analysistest.DocBlock(ft, doc, "## Example"))
	assert.Empty(t, ft.fatals)
	analysistest.DocBlock(ft, doc, "## Use instead")
	assert.NotEmpty(t, ft.fatals, "no python block under the heading")
}

// The method lands inside the class, one level in: its boom() is found on
// the method's second line, at column 9, in C.b.
func TestMethodFindings(t *testing.T) {
	const class = "class C:\n    def a(self):\n        pass\n\n"
	ft := &fakeT{}
	ds := analysistest.MethodFindings(ft, "c.py", class, "def b(self):\n    boom()\n", boom)
	assert.Empty(t, ft.fatals)
	require.Len(t, ds, 1)
	assert.Equal(t, "c.py", ds[0].Path)
	assert.Equal(t, syntax.Position{Line: 6, Column: 9}, ds[0].Start)
	assert.Equal(t, "C.b", ds[0].Function)

	ft = &fakeT{}
	assert.Nil(t, analysistest.MethodFindings(ft, "c.py", class, "def b(self):\n    boom(\x00)\n", boom))
	assert.NotEmpty(t, ft.fatals, "a file sglint skips fails the test")
}

func TestAt(t *testing.T) {
	ds := []analyzer.Diagnostic{
		{Path: "a.py", Start: syntax.Position{Line: 3}, Message: "other file"},
		{Path: "b.py", Start: syntax.Position{Line: 2}, Message: "other line"},
		{Path: "b.py", Start: syntax.Position{Line: 3}, Message: "first"},
		{Path: "b.py", Start: syntax.Position{Line: 3}, Message: "second"},
	}
	assert.Same(t, &ds[2], analysistest.At(ds, "b.py", 3))
	assert.Nil(t, analysistest.At(ds, "b.py", 4))
	assert.Nil(t, analysistest.At(nil, "b.py", 3))
}
