package rules_test

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/rules"
)

// The standard library of the machine's python3 (without the third-party
// packages installed next to it) is a large body of real, valid Python:
// every rule must get through it without an internal error, and tree-sitter
// may disagree with CPython on only a handful of files. Not skipped in
// -short mode: it is the broadest check of the pipeline and takes seconds.
func TestStdlib(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	out, err := exec.Command(python, "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	require.NoError(t, err, "python3 cannot tell where its stdlib is")
	stdlib := strings.TrimSpace(string(out))

	opts := discover.DefaultOptions()
	opts.Exclude = []string{"site-packages", "dist-packages"}
	files, problems := discover.Find([]string{stdlib}, opts)
	require.Empty(t, problems)
	require.Greater(t, len(files), 500, "%s does not look like a stdlib", stdlib)

	inputs := make([]analyzer.Input, len(files))
	for i, f := range files {
		inputs[i] = analyzer.Input{Path: f.Path, Abs: f.Abs, Report: true}
	}
	// Records that match most raise sites, so that SGL010 searches from
	// thousands of them.
	broad := records.NewSet([]*records.Record{
		{ID: "any-runtime", ErrorClass: "RuntimeError", MessagePattern: ".*"},
		{ID: "any-value", ErrorClass: "ValueError", MessagePattern: ".*"},
		{ID: "any-assert", ErrorClass: "AssertionError", MessagePattern: ".*"},
		{ID: "any-type", ErrorClass: "TypeError", MessagePattern: ".*"},
	})
	start := time.Now()
	res := analyzer.Run(inputs, analyzer.Options{Rules: rules.All(), Jobs: 2, Root: discover.ProjectRoot([]string{stdlib}), Records: broad})
	t.Logf("checked in %v: %d raise sites", time.Since(start), len(res.RaiseSites))

	for _, p := range res.Problems {
		assert.False(t, p.Internal, "%s", p)
		t.Logf("problem: %s", p)
	}
	broken := map[string]bool{}
	for _, d := range res.Diagnostics {
		if d.Rule.ID == "SGL000" {
			broken[d.Path] = true
			t.Logf("%s:%d:%d: %s", d.Path, d.Start.Line, d.Start.Column, d.Message)
		}
	}
	assert.LessOrEqual(t, len(broken), 5, "files with SGL000 out of %d", len(files))
	t.Logf("%d files, %d with SGL000, %d diagnostics", len(files), len(broken), len(res.Diagnostics))
}
