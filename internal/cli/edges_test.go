package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Issue 17, point 6: the rough edges a new user meets.
func TestRoughEdges(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "a.py", "x = 1\n")

	o := runMain(t, dir, nil, "--fromat", "json", ".")
	assert.Equal(t, outcome{ExitError, "", "sglint: unknown flag --fromat (did you mean --format?)\nRun 'sglint --help' for usage.\n"}, o)
	o = runMain(t, dir, nil, "--format")
	assert.Equal(t, "sglint: flag needs an argument: --format\nRun 'sglint --help' for usage.\n", o.stderr)
	o = runMain(t, dir, nil, "-j", "x")
	assert.Equal(t, "sglint: invalid value \"x\" for flag -j: parse error\nRun 'sglint --help' for usage.\n", o.stderr)
	o = runMain(t, dir, nil, "--format", "jsn", ".")
	assert.Equal(t, ExitError, o.code)
	assert.Contains(t, o.stderr, `sglint: --format: unknown format "jsn" (did you mean json?)`)

	// A rule's name in a noqa comment suppresses nothing: said, with the code.
	putFile(t, dir, "b.py", "x = = 1  # noqa: syntax-error\n")
	o = runMain(t, dir, nil, "b.py")
	assert.Equal(t, ExitFindings, o.code)
	assert.Equal(t, "sglint: b.py:1:10: warning: `# noqa: syntax-error` suppresses nothing: noqa comments take rule codes, "+
		"not names: write `# noqa: SGL000` (ruff and flake8 read these comments too, and flake8 takes any other word "+
		"for a bare `# noqa` that silences everything)\n", o.stderr)

	// --config on a pyproject.toml under another name reads its [tool.sglint].
	putFile(t, dir, "pyproject_cpu.toml", "[build-system]\nrequires = [\"setuptools\"]\n\n[project]\nname = \"x\"\n\n"+
		"[tool.sglint]\nignore = [\"SGL000\"]\n")
	o = runMain(t, dir, nil, "--config", "pyproject_cpu.toml", "b.py")
	assert.Equal(t, ExitClean, o.code, o.stderr)
	putFile(t, dir, "pyproject_gpu.toml", "[project]\nname = \"x\"\n")
	o = runMain(t, dir, nil, "--config", "pyproject_gpu.toml", "b.py")
	assert.Equal(t, outcome{ExitError, "", "sglint: pyproject_gpu.toml: no [tool.sglint] table\n"}, o)

	// A TOML syntax error names the file as paths are shown everywhere.
	putFile(t, dir, "sub/pyproject.toml", "[tool.sglint\n")
	putFile(t, dir, "sub/c.py", "x = 1\n")
	o = runMain(t, dir, nil, "sub/c.py")
	assert.Equal(t, outcome{ExitError, "", "sglint: sub/pyproject.toml:1:13: invalid TOML: expected ']' to close table name\n"}, o)
}

// One cache per checkout, whatever the paths: `sglint python` (project
// root python/) and `sglint .` (the repository) used to leave two.
func TestOneCachePerCheckout(t *testing.T) {
	t.Setenv("SGLINT_CACHE_DIR", "")
	dir := t.TempDir()
	putFile(t, dir, ".git/HEAD", "")
	putFile(t, dir, "python/pyproject.toml", "[project]\nname = \"kv\"\n")
	putFile(t, dir, "python/kv/conn.py", "x = 1\n")
	putFile(t, dir, "test/t.py", "y = 1\n")
	for _, args := range [][]string{{"python"}, {"python/kv/conn.py"}, {"."}, {"--stats", "python"}} {
		o := runMain(t, dir, nil, args...)
		assert.Equal(t, ExitClean, o.code, o.stderr)
		if args[0] == "--stats" {
			assert.True(t, strings.Contains(o.stderr, " 0 parsed ("), "the second run on python/ reads the cache: %s", o.stderr)
		}
	}
	assert.DirExists(t, filepath.Join(dir, ".sglint_cache"))
	assert.NoDirExists(t, filepath.Join(dir, "python", ".sglint_cache"))
}
