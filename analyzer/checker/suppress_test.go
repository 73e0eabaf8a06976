package checker_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/syntax"
)

// callRule reports every call of a function named name, under the given id.
func callRule(id, name string) *analyzer.Rule {
	return &analyzer.Rule{
		ID: id, Name: "call-" + name, Title: "calls " + name, Doc: "test rule",
		Run: func(pass *analyzer.Pass) error {
			t := pass.File.Tree()
			for i := 0; i < t.Len(); i++ {
				n := syntax.NodeID(i)
				if t.Kind(n) == syntax.Call && t.TextIs(t.Field(n, syntax.FFunction), name) {
					pass.Reportf(n, "call of %s", name)
				}
			}
			return nil
		},
	}
}

func run(rules []*analyzer.Rule, files map[string]string) *checker.Result {
	var inputs []checker.Input
	for path, src := range files {
		inputs = append(inputs, checker.Input{Path: path, Src: []byte(src), Report: true})
	}
	return checker.Run(inputs, checker.Options{Rules: rules, Jobs: 2})
}

func TestSuppressionsApplied(t *testing.T) {
	a, b := callRule("SGL901", "a"), callRule("SGL902", "b")
	res := run([]*analyzer.Rule{a, b}, map[string]string{
		"m.py": "a()  # noqa: SGL901\n" +
			"a(); b()  # noqa: SGL902\n" +
			"b()  # noqa\n" +
			"s = '# noqa'; a()\n" +
			"x = (a(),  # noqa\n     b())\n",
		"n.py": "# sglint: noqa: SGL902\nb()\na()\n",
	})
	require.Empty(t, res.Problems)
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Path+":"+strconv.Itoa(d.Start.Line)+" "+d.Rule.ID+" "+d.LineText)
	}
	assert.Equal(t, []string{
		"m.py:2 SGL901 a(); b()  # noqa: SGL902",
		"m.py:4 SGL901 s = '# noqa'; a()",
		"m.py:6 SGL902      b())",
		"n.py:3 SGL901 a()",
	}, got)
	assert.Equal(t, 5, res.Suppressed)

	// Usage is recorded for unused-noqa reports.
	require.Len(t, res.Noqa, 2)
	var unused []string
	for _, s := range res.Noqa {
		for _, d := range s.Directives {
			if !d.Used() {
				unused = append(unused, s.Path+":"+strconv.Itoa(d.Start.Line))
			}
		}
	}
	assert.Empty(t, unused)
}

func TestUnusedNoqaVisible(t *testing.T) {
	res := run([]*analyzer.Rule{callRule("SGL901", "a")}, map[string]string{
		"m.py": "b()  # noqa: SGL901\na()  # noqa: SGL901, SGL902\n",
	})
	require.Len(t, res.Noqa, 1)
	ds := res.Noqa[0].Directives
	require.Len(t, ds, 2)
	assert.False(t, ds[0].Used())
	assert.Equal(t, []string{"SGL902"}, ds[1].UnusedCodes())
	assert.Empty(t, res.Diagnostics)
}

func TestLineTextCRLFAndLastLine(t *testing.T) {
	res := run([]*analyzer.Rule{callRule("SGL901", "a")}, map[string]string{
		"m.py": "x = 1\r\n  a()\r\nif a(): pass",
	})
	require.Len(t, res.Diagnostics, 2)
	assert.Equal(t, "  a()", res.Diagnostics[0].LineText)
	assert.Equal(t, "if a(): pass", res.Diagnostics[1].LineText)
}

func TestLineTextBounded(t *testing.T) {
	// A long line of multi-byte characters: the cut must stay valid UTF-8.
	long := "a(); x = '" + strings.Repeat("é", 5000) + "'\n"
	res := run([]*analyzer.Rule{callRule("SGL901", "a")}, map[string]string{"m.py": long})
	require.Len(t, res.Diagnostics, 1)
	lt := res.Diagnostics[0].LineText
	assert.LessOrEqual(t, len(lt), 4096)
	assert.Greater(t, len(lt), 4000)
	assert.True(t, strings.HasPrefix(long, lt))
	assert.True(t, strings.HasSuffix(lt, "é"))
}

func TestFingerprintStableAcrossMoves(t *testing.T) {
	r := callRule("SGL901", "a")
	before := run([]*analyzer.Rule{r}, map[string]string{"m.py": "def f():\n    a()\n"})
	after := run([]*analyzer.Rule{r}, map[string]string{"m.py": "import os\n\n\nif True:\n        a( )\n"})
	other := run([]*analyzer.Rule{r}, map[string]string{"m.py": "def f():\n    a(1)\n"})
	otherPath := run([]*analyzer.Rule{r}, map[string]string{"n.py": "def f():\n    a()\n"})
	require.Len(t, before.Diagnostics, 1)
	require.Len(t, after.Diagnostics, 1)
	fp := before.Diagnostics[0].Fingerprint()
	assert.Len(t, fp, 16)
	assert.NotEqual(t, fp, after.Diagnostics[0].Fingerprint(), "'a( )' is not 'a()': inner spacing is collapsed, not removed")
	moved := run([]*analyzer.Rule{r}, map[string]string{"m.py": "import os\n\n\nif True:\n        a()\n"})
	assert.Equal(t, fp, moved.Diagnostics[0].Fingerprint())
	assert.NotEqual(t, fp, other.Diagnostics[0].Fingerprint())
	assert.NotEqual(t, fp, otherPath.Diagnostics[0].Fingerprint())
}

func TestNormalizeLine(t *testing.T) {
	assert.Equal(t, "if a and b:", analyzer.NormalizeLine("\t  if  a and\tb:  "))
}
