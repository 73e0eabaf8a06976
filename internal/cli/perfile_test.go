package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sglangShaped is a repository shaped like sglang: the package and its
// settings under python/, other Python beside it with no settings.
func sglangShaped(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	putFile(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	putFile(t, dir, "python/pyproject.toml", "[project]\nname = \"kv\"\n\n[tool.sglint]\nignore = [\"SGL000\"]\nextend-exclude = [\"gen\"]\n"+
		"\n[tool.sglint.per-file-ignores]\n\"kvmgr/legacy.py\" = [\"SGL990\"]\n")
	putFile(t, dir, "python/kvmgr/manager.py", "def send(self, req:\n    pass\n")
	putFile(t, dir, "python/kvmgr/legacy.py", "send(1)\n")
	putFile(t, dir, "python/gen/out.py", "send(1)\n")
	putFile(t, dir, "benchmark/bench.py", "x = = 1\n")
	putFile(t, dir, "gen/keep.py", "y = = 2\n")
	return dir
}

// Issue 17, point 1: each file is checked under the nearest configuration,
// whatever the order of the paths (pre-commit --all-files passes
// benchmark/ before python/; --files passes python/ alone).
func TestConfigOfEachFile(t *testing.T) {
	withTestRules(t)
	dir := sglangShaped(t)
	want := outcome{ExitFindings, "benchmark/bench.py:1:5: SGL000 syntax error: unexpected `=`\n" +
		"Found 1 problem in 1 file: 1 error (SGL000).\n", ""}
	assert.Equal(t, want, runMain(t, dir, nil, "benchmark/bench.py", "python/kvmgr/manager.py"))
	assert.Equal(t, want, runMain(t, dir, nil, "python/kvmgr/manager.py", "benchmark/bench.py"))
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, runMain(t, dir, nil, "python/kvmgr/manager.py"))

	// A walk: python/'s extend-exclude applies under python/ only (gen/ at
	// the root is checked), its per-file-ignores are relative to python/,
	// and files outside python/ get the defaults.
	withTestRules(t)
	o := runMain(t, dir, nil, ".")
	assert.Equal(t, outcome{ExitFindings, "benchmark/bench.py:1:5: SGL000 syntax error: unexpected `=`\n" +
		"gen/keep.py:1:5: SGL000 syntax error: unexpected `=`\n" +
		"Found 2 problems in 2 files: 2 errors (SGL000 ×2).\n", ""}, o)
	sub := runMain(t, filepath.Join(dir, "python"), nil, "..")
	assert.Equal(t, o.stdout, strings.ReplaceAll(sub.stdout, filepath.ToSlash(dir)+"/", ""), "from a subdirectory too")

	// --config still overrides all.
	o = runMain(t, dir, nil, "--config", "python/pyproject.toml", "benchmark/bench.py", "python/kvmgr/manager.py")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)
}

// Rule options and shared sections that differ between configurations:
// each file gets its own, over one project (a base class under one
// configuration is known to a subclass under another).
func TestConfigsWithDifferentOptions(t *testing.T) {
	withTestRules(t)
	dir := t.TempDir()
	putFile(t, dir, ".git/HEAD", "")
	putFile(t, dir, "pyproject.toml", "[tool.sglint]\nselect = [\"SGL990\"]\n")
	putFile(t, dir, "python/sglint.toml", "select = [\"SGL990\", \"SGL991\"]\n[rules.SGL990]\nnames = [\"transfer\"]\n")
	putFile(t, dir, "tools/a.py", "send(1)\ntransfer(2)\n\n\nclass Base:\n    def send_kvcache(self):\n        pass\n")
	putFile(t, dir, "python/b.py", "send(1)\ntransfer(2)\n\n\nclass Sub(Base):\n    pass\n")
	o := runMain(t, dir, nil, "--stats", ".")
	assert.Equal(t, ExitFindings, o.code, o.stderr)
	assert.Equal(t, "python/b.py:2:1: SGL990 call to transfer\n"+
		"python/b.py:5:7: SGL991 subclasses Base from tools/a.py\n"+
		"tools/a.py:1:1: SGL990 call to send\n"+
		"Found 3 problems in 2 files: 3 warnings (SGL990 ×2, SGL991).\n", o.stdout)
	assert.Contains(t, o.stderr, "sglint: stats (engine run 1 of 2): ")
	assert.Contains(t, o.stderr, "sglint: stats (engine run 2 of 2): ")

	// Configurations that agree share one engine run.
	putFile(t, dir, "python/sglint.toml", "select = [\"SGL990\"]\n")
	o = runMain(t, dir, nil, "--stats", ".")
	assert.Contains(t, o.stderr, "sglint: stats: ")
	assert.NotContains(t, o.stderr, "engine run")
}

// A broken configuration fails the run when a file to check is under it;
// met only by the walk for context files, it costs nothing but their
// settings.
func TestBrokenConfigOnlyWhereItMatters(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, ".git/HEAD", "")
	putFile(t, dir, "pkg/a.py", "x = 1\n")
	putFile(t, dir, "other/pyproject.toml", "[tool.sglint\n")
	putFile(t, dir, "other/b.py", "y = 1\n")
	o := runMain(t, dir, nil, "pkg/a.py")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)
	o = runMain(t, dir, nil, ".")
	assert.Equal(t, outcome{ExitError, "", "sglint: other/pyproject.toml:1:13: invalid TOML: expected ']' to close table name\n"}, o)
	require.NoError(t, os.Remove(filepath.Join(dir, "other/pyproject.toml")))
	assert.Equal(t, ExitClean, runMain(t, dir, nil, ".").code)
}
