package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cache lives at the project root unless SGLINT_CACHE_DIR says
// otherwise; --no-cache neither reads nor writes it; a cache that cannot be
// created costs a warning, not the run.
func TestCacheLocationAndFlags(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "pyproject.toml", "")
	putFile(t, dir, "pkg/a.py", "def f(:\n")
	want := runMain(t, dir, nil, "--all-files", "--no-cache", "pkg")
	assert.Equal(t, ExitFindings, want.code)
	assert.NoDirExists(t, filepath.Join(dir, ".sglint_cache"), "--no-cache writes nothing")

	t.Setenv("SGLINT_CACHE_DIR", "")
	o := runMain(t, filepath.Join(dir, "pkg"), nil, "a.py")
	assert.Equal(t, "a.py:1:6: SGL000 syntax error: `(` was never closed\nFound 1 problem in 1 file: 1 error (SGL000).\n", o.stdout)
	assert.FileExists(t, filepath.Join(dir, ".sglint_cache", "CACHEDIR.TAG"), "at the project root, not in pkg/")
	assert.NoDirExists(t, filepath.Join(dir, "pkg", ".sglint_cache"))

	elsewhere := filepath.Join(t.TempDir(), "c")
	t.Setenv("SGLINT_CACHE_DIR", elsewhere)
	o = runMain(t, dir, nil, "--all-files", "pkg")
	assert.Equal(t, want, o)
	assert.FileExists(t, filepath.Join(elsewhere, "CACHEDIR.TAG"))
	o = runMain(t, dir, nil, "--all-files", "--stats", "pkg")
	assert.Contains(t, o.stderr, "1 from the cache")

	blocked := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(blocked, nil, 0o644))
	t.Setenv("SGLINT_CACHE_DIR", filepath.Join(blocked, "sub"))
	o = runMain(t, dir, nil, "--all-files", "pkg")
	assert.Equal(t, want.stdout, o.stdout)
	assert.Equal(t, want.code, o.code)
	assert.Contains(t, o.stderr, "sglint: warning: running without a cache: ")
}

// --cache-dir wins over SGLINT_CACHE_DIR and the project root: the
// pre-commit hook keeps one cache at the repository root whatever files it
// is given, relative to the directory sglint runs in.
func TestCacheDirFlag(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, ".git/HEAD", "")
	putFile(t, dir, "python/pyproject.toml", "")
	putFile(t, dir, "python/pkg/a.py", "def f(:\n")
	t.Setenv("SGLINT_CACHE_DIR", filepath.Join(t.TempDir(), "env"))
	o := runMain(t, dir, nil, "--cache-dir", ".sglint_cache", "python/pkg/a.py")
	assert.Equal(t, ExitFindings, o.code, o.stderr)
	assert.FileExists(t, filepath.Join(dir, ".sglint_cache", "CACHEDIR.TAG"))
	assert.FileExists(t, filepath.Join(dir, ".sglint_cache", ".gitignore"), "the cache ignores itself")
	assert.NoDirExists(t, filepath.Join(dir, "python", ".sglint_cache"))
	o = runMain(t, dir, nil, "--cache-dir", ".sglint_cache", "--stats", "python/pkg/a.py")
	assert.Contains(t, o.stderr, "1 from the cache")
}
