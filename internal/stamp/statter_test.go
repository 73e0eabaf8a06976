package stamp

import (
	"os"
	"path/filepath"
	"runtime"
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

// Where the buffer is reused, a stat allocates nothing.
func TestStatterAllocatesNothing(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("the statter reuses its buffer on linux/amd64 and linux/arm64")
	}
	dir := t.TempDir()
	var s Statter
	s.Path(dir) // the buffer grows once
	require.Zero(t, testing.AllocsPerRun(100, func() { s.Path(dir) }))
	require.NotZero(t, testing.AllocsPerRun(100, func() { Path(dir) }), "what the statter saves")
}
