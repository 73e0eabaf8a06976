package rules_test

import (
	"errors"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/internal/stdlib"
	"github.com/sglint/sglint/rules"
)

// The standard library of the machine's python3 (without the third-party
// packages installed next to it) is a large body of real, valid Python:
// every rule must get through it without an internal error, and tree-sitter
// may disagree with CPython on only a handful of files. Not skipped in
// -short mode: it is the broadest check of the pipeline and takes seconds.
// SGLINT_BENCH_CORPUS, if set, replaces the standard library (see stdlib.Dir).
func TestStdlib(t *testing.T) {
	dir, err := stdlib.Dir()
	if errors.Is(err, exec.ErrNotFound) {
		t.Skip("python3 not found")
	}
	require.NoError(t, err)

	// Found by discover, as a run finds them, rather than by stdlib.Files:
	// the discovery is part of the pipeline under test.
	opts := discover.DefaultOptions()
	opts.Exclude = []string{"site-packages", "dist-packages"}
	files, problems := discover.Find([]string{dir}, opts)
	require.Empty(t, problems)
	require.Greater(t, len(files), 500, "%s does not look like a stdlib", dir)

	inputs := make([]checker.Input, len(files))
	for i, f := range files {
		inputs[i] = checker.Input{Path: f.Path, Abs: f.Abs, Report: true}
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
	res := checker.Run(inputs, checker.Options{Rules: rules.All(), Jobs: 2, Root: discover.ProjectRoot([]string{dir}), Records: broad})
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
