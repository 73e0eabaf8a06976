package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/rules"
)

// nestedIfs is n if-statements, each inside the previous one.
func nestedIfs(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "if x:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "pass\n")
	return b.String()
}

// anyMessage matches every raise of the common classes, so that the
// record-driven rule searches from every raise it can read.
var anyMessage = records.NewSet([]*records.Record{
	{ID: "any-runtime", ErrorClass: "RuntimeError", MessagePattern: ".*"},
	{ID: "any-assert", ErrorClass: "AssertionError", MessagePattern: "(a|b)*c?"},
})

// Hostile but possible inputs, run through discovery and every registered
// rule: each ends in a clean result, a finding or a clear problem, never an
// internal error, and the outcome is the same for any number of workers.
func TestEveryRuleSurvivesHostileInput(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"empty.py":       "",
		"only_bom.py":    "\xef\xbb\xbf",
		"nul.py":         "x = 1\x00\n",
		"bad_utf8.py":    "def f():\n    return '\xff\xfe'\n",
		"latin1.py":      "# coding: latin-1\ns = '\xe9'\n",
		"long_line.py":   "DATA = '" + strings.Repeat("a", 10<<20) + "'\n", // 10 MB, one line
		"dense_line.py":  "x = [" + strings.Repeat("1, ", 50_000) + "]\n",
		"deep_parens.py": "x = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "\n",
		"deep_calls.py":  "x = " + strings.Repeat("f(", 5000) + strings.Repeat(")", 5000) + "\n",
		"deep_lists.py":  "x = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n",
		"unclosed.py":    "x = " + strings.Repeat("(", 5000) + "\n",
		"deep_blocks.py": nestedIfs(99),   // CPython's limit
		"too_deep.py":    nestedIfs(1000), // beyond it: a syntax error
		"crlf.py":        "def f():\r\n    return 1\r\n",
		"lone_cr.py":     "x = 1\ry = 2\r",
		"garbage.py":     "\x7f\x1b[31m}{)(:::\u202e\ufeff",
		"deep_concat.py": "def send_x():\n    raise RuntimeError(" + strings.Repeat("'a' + ", 5000) + "'b')\n",
		"wide_fstr.py":   "def send_y(v):\n    raise RuntimeError(f\"" + strings.Repeat("{v} %s ", 20_000) + "\" % v)\n",
	}
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "dir.py"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "dir.py", "inner.py"), []byte("pass\n"), 0o644))
	require.NoError(t, os.Symlink("nowhere.py", filepath.Join(dir, "dangling.py")))

	found, problems := discover.Find([]string{"."}, discover.Options{Cwd: dir})
	assert.Equal(t, []discover.Problem{{Path: "dangling.py", Warning: true,
		Message: `dangling symbolic link (target "nowhere.py" does not exist), skipped`}}, problems)
	require.Len(t, found, len(files)+1)
	var inputs []checker.Input
	for _, f := range found {
		inputs = append(inputs, checker.Input{Path: f.Path, Abs: f.Abs, Report: true})
	}

	var first *checker.Result
	for _, jobs := range []int{1, 2} {
		res := checker.Run(inputs, checker.Options{Rules: rules.All(), Jobs: jobs, Records: anyMessage, Full: true})
		var got []string
		for _, p := range res.Problems {
			assert.False(t, p.Internal, "%s", p)
			got = append(got, p.String())
		}
		assert.Equal(t, []string{"nul.py: warning: binary file (NUL byte at 1:6), skipped"}, got)
		// Other rules may find things in these files; SGL000 must find
		// exactly the files CPython rejects.
		var syntaxErrors []string
		for _, d := range res.Diagnostics {
			if d.Rule.ID == "SGL000" {
				syntaxErrors = append(syntaxErrors, d.Path)
			}
		}
		assert.Equal(t, []string{"bad_utf8.py", "garbage.py", "too_deep.py", "unclosed.py"}, syntaxErrors)
		if first == nil {
			first = res
			continue
		}
		assert.Equal(t, first.Diagnostics, res.Diagnostics, "output differs between -j 1 and -j 2")
	}
	// The same files pre-scanned by a demand-driven run (no KV code: nothing
	// is loaded, and nothing breaks on the way).
	res := checker.Run(inputs, checker.Options{Rules: rules.All(), Jobs: 2, Records: anyMessage})
	assert.Equal(t, len(inputs), res.Stats.Scanned, "every file pre-scanned")
	assert.Zero(t, res.Stats.Files, "nothing loaded")
	for _, p := range res.Problems {
		assert.False(t, p.Internal, "%s", p)
	}
}
