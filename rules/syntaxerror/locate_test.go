package syntaxerror_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/rules/syntaxerror"
)

func TestFixtures(t *testing.T) {
	res := analysistest.Run(t, filepath.Join("..", "..", "testdata", "rules", "sgl000"), syntaxerror.Rule)
	require.NotNil(t, res)
	assert.Equal(t, 1, res.Suppressed, "suppressed.py")
}

func check(t *testing.T, src string) []analyzer.Diagnostic {
	t.Helper()
	res := checker.Run([]checker.Input{{Path: "m.py", Src: []byte(src), Report: true}},
		checker.Options{Rules: []*analyzer.Rule{syntaxerror.Rule}, Jobs: 1})
	require.Empty(t, res.Problems)
	return res.Diagnostics
}

func TestPositions(t *testing.T) {
	cases := []struct {
		src       string
		line, col int
		message   string
	}{
		{"foo(a b)\n", 1, 7, "syntax error: unexpected `b`"},
		{"x = {1: 2, 3}\n", 1, 12, "syntax error: unexpected `3`"},
		{"def f(:\n    pass\n", 1, 6, "syntax error: `(` was never closed"},
		{"x = 'abc\ny = 2\n", 1, 5, "syntax error: unterminated string literal"},
		{"s = f\"{x}\n", 1, 5, "syntax error: unterminated string literal"},
		// What the tokens tell, at the place CPython names.
		{"x = foo(1, 2\ny = 3\n", 1, 8, "syntax error: `(` was never closed"},
		{"x = {1: 2\ny = 1\n", 1, 5, "syntax error: `{` was never closed"},
		{"f(g(1, 2)\n", 1, 2, "syntax error: `(` was never closed"},
		{"def f(x):\n    return x]\n", 2, 13, "syntax error: unmatched `]`"},
		{"x = (1,\n     2]\n", 2, 7, "syntax error: `]` does not match `(` on line 1"},
		{"def f()\n    return 1\n", 1, 8, "syntax error: expected `:`"},
		{"while True\n    x = 1\n", 1, 11, "syntax error: expected `:`"},
		{"try:\n    x = 1\nexcept Exception as e\n    pass\n", 3, 22, "syntax error: expected `:`"},
		{"if x:\n    pass\nelse\n    pass\n", 3, 5, "syntax error: expected `:`"},
		{"while (x and\n       y)\n    pass\n", 2, 10, "syntax error: expected `:`"},
		{"for x in:\n    pass\n", 1, 9, "syntax error: expected an identifier"},
		// An error before the bracket is the first one.
		{"x = = 1\ny = (2,\n", 1, 5, "syntax error: unexpected `=`"},
		{"x = 1 if 2\n", 1, 1, "syntax error: cannot parse `x = 1 if 2`"},
		{"try:\n    pass\n", 1, 1, "syntax error: cannot parse `try:…`"},
		{"print('" + strings.Repeat("a", 30) + "' b)\n", 1, 40, "syntax error: unexpected `b`"},
		{"f(" + strings.Repeat("a", 30) + "x " + strings.Repeat("b", 30) + ")\n", 1, 35,
			"syntax error: unexpected `" + strings.Repeat("b", 20) + "…`"},
	}
	for _, c := range cases {
		ds := check(t, c.src)
		if assert.Len(t, ds, 1, "%q", c.src) {
			assert.Equal(t, c.line, ds[0].Start.Line, "%q", c.src)
			assert.Equal(t, c.col, ds[0].Start.Column, "%q", c.src)
			assert.Equal(t, c.message, ds[0].Message, "%q", c.src)
		}
	}
}

func TestDeepNestingAndOddInput(t *testing.T) {
	deep := strings.Repeat("(", 5000) + strings.Repeat(")", 5000) + "\n"
	assert.Empty(t, check(t, deep))
	assert.Len(t, check(t, strings.Repeat("(", 5000)+"\n"), 1)
	assert.Len(t, check(t, strings.Repeat(")", 5000)+"\n"), 1)
	assert.Len(t, check(t, strings.Repeat("if x\n", 2000)), 1)
	assert.Empty(t, check(t, ""))
	assert.Len(t, check(t, "x = '\xff\xfe'\ny = $\n"), 1)
}
