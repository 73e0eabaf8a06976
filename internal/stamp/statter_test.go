package stamp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A Statter reads every kind of path as Path does.
func TestStatterIsPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.py")
	require.NoError(t, os.WriteFile(file, []byte("x = 1\n"), 0o644))
	link := filepath.Join(dir, "link.py")
	require.NoError(t, os.Symlink(file, link))
	paths := []string{
		file, dir, link,
		filepath.Join(dir, "missing.py"),
		filepath.Join(file, "under-a-file"), // ENOTDIR: missing
		filepath.Join(dir, "nul\x00.py"),    // refused
		"",
	}
	var s Statter
	for _, p := range paths {
		st, exists, isDir, ok := Path(p)
		gst, gexists, gisDir, gok := s.Path(p)
		require.Equal(t, []any{st, exists, isDir, ok}, []any{gst, gexists, gisDir, gok}, "%q", p)
	}
	st, exists, _, ok := s.Path(link)
	require.True(t, exists && ok)
	fst, _, _, _ := Path(file)
	require.Equal(t, fst, st, "a link is followed")
}

// With a Dir, a relative path is read under it and an absolute one as it
// is.
func TestStatterInDir(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "pkg"), 0o755))
	file := filepath.Join(dir, "pkg", "a.py")
	require.NoError(t, os.WriteFile(file, []byte("x = 1\n"), 0o644))
	d, err := OpenDir(dir)
	require.NoError(t, err)
	defer d.Close()
	s := Statter{Dir: d}
	for _, rel := range []string{"pkg/a.py", "pkg", "pkg/missing.py", "pkg/a.py/under-a-file", "."} {
		want, wexists, wisDir, wok := Path(filepath.Join(dir, rel))
		got, exists, isDir, ok := s.Path(rel)
		require.Equal(t, []any{want, wexists, wisDir, wok}, []any{got, exists, isDir, ok}, "%q", rel)
	}
	other := t.TempDir()
	want, _, _, _ := Path(other)
	got, exists, isDir, ok := s.Path(other)
	require.True(t, exists && isDir && ok)
	require.Equal(t, want, got, "an absolute path ignores the directory")
	_, err = OpenDir(file)
	require.Error(t, err, "a file is no directory")
}
