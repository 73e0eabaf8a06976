package checker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// An edited buffer is parsed only where it changed (the session keeps the
// last version's tree), into the tree of a full parse.
func TestSessionSetReparsesTheEdit(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "a.py")
	src := "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n"
	require.NoError(t, os.WriteFile(abs, []byte(src), 0o644))
	s := NewSession([]Input{{Path: "a.py", Abs: abs}}, Options{Rules: nil, Jobs: 1, Root: dir})
	defer s.Close()
	s.Set(Input{Path: "a.py", Abs: abs, Src: []byte(src)})
	before := s.parser.Timing.Spliced
	edited := "class A:\n    def f(self):\n        x = 0\n        return x\n\n    def g(self):\n        return 2\n"
	s.Set(Input{Path: "a.py", Abs: abs, Src: []byte(edited)})
	require.Equal(t, before+1, s.parser.Timing.Spliced)
	got := s.byPath["a.py"].file.Tree()
	want, err := s.parser.Parse([]byte(edited))
	require.NoError(t, err)
	require.Equal(t, want.Pack(nil), got.Pack(nil), "every node, and the clean bit")
}
