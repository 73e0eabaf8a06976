package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// --stats adds a timing report on stderr; stdout and the exit code are those
// of the same run without it. (--all-files: these files hold no KV code.)
func TestStatsFlag(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "a.py", "def f(:\n")
	putFile(t, dir, "b.py", "x = 1\n")
	plain := runMain(t, dir, nil, "--all-files", "--no-cache", ".")
	o := runMain(t, dir, nil, "--all-files", "--stats", "--no-cache", ".")
	assert.Equal(t, plain.code, o.code)
	assert.Equal(t, plain.stdout, o.stdout)
	assert.True(t, strings.HasPrefix(o.stderr, "sglint: stats: 2 files, "), o.stderr)
	for _, stage := range []string{"setup", "discover", "load", "index", "check", "finish", "output", "total"} {
		assert.Contains(t, o.stderr, "\n  "+stage+" ", stage)
	}
	assert.Contains(t, o.stderr, "2 parsed")
	assert.Contains(t, o.stderr, "SGL000")
	assert.Contains(t, o.stderr, "peak RSS")

	// With the cache: the first run fills it, the second reads it.
	first := runMain(t, dir, nil, "--all-files", "--stats", ".")
	assert.Contains(t, first.stderr, "2 parsed")
	second := runMain(t, dir, nil, "--all-files", "--stats", ".")
	assert.Equal(t, plain.stdout, second.stdout)
	assert.Contains(t, second.stderr, "0 parsed (0 nodes), 2 from the cache")

	// A demand-driven run says what it pre-scanned and loaded.
	o = runMain(t, dir, nil, "--stats", "--no-cache", ".")
	assert.Contains(t, o.stderr, "  demand              2 files pre-scanned in ")
	assert.Contains(t, o.stderr, "0 loaded in 1 rounds")
}
