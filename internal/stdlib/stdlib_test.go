package stdlib

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tree writes an empty file at each slash-separated path under a new
// temporary directory.
func tree(t *testing.T, paths ...string) string {
	dir := t.TempDir()
	for _, p := range paths {
		path := filepath.Join(dir, filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, nil, 0o644))
	}
	return dir
}

func rels(files []File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Rel)
	}
	return out
}

func TestFiles(t *testing.T) {
	dir := tree(t,
		"os.py", "abc.py", "README.txt", "json/decoder.py", "json/__init__.py",
		"test/test_os.py", "lib2to3/tests/data.py", "idlelib/idle_test/htest.py", "idlelib/run.py",
		"site-packages/six.py", "json/__pycache__/decoder.py", "json/site-packages/x.py",
	)
	files, err := Files(dir, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"abc.py", "idlelib/run.py", "json/__init__.py", "json/decoder.py", "os.py"}, rels(files))
	for _, f := range files {
		assert.Equal(t, filepath.Join(dir, filepath.FromSlash(f.Rel)), f.Abs)
	}

	files, err = Files(dir, true)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"abc.py", "idlelib/idle_test/htest.py", "idlelib/run.py", "json/__init__.py", "json/decoder.py",
		"lib2to3/tests/data.py", "os.py", "test/test_os.py",
	}, rels(files))
}

// A corpus that is itself a test folder is not skipped as one.
func TestFilesInTestFolder(t *testing.T) {
	dir := filepath.Join(tree(t, "tests/a.py", "tests/test/b.py"), "tests")
	files, err := Files(dir, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.py"}, rels(files))
}

func TestFilesMissingDir(t *testing.T) {
	_, err := Files(filepath.Join(t.TempDir(), "none"), false)
	assert.Error(t, err)
}

func TestOverride(t *testing.T) {
	dir := tree(t, "a.py", "b/c.py")
	t.Setenv(Env, dir)
	got, err := Dir()
	require.NoError(t, err)
	assert.Equal(t, dir, got)

	_, files := Corpus(t, false)
	assert.Equal(t, []string{"a.py", "b/c.py"}, rels(files))
	require.NoError(t, os.WriteFile(files[1].Abs, []byte("x = 1\n"), 0o644))
	assert.Equal(t, [][]byte{{}, []byte("x = 1\n")}, Sources(t, files))
}
