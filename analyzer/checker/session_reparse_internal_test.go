package checker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// oneFileSession is a session, without rules, of one file a.py holding
// src on disk; it returns the file's path.
func oneFileSession(t *testing.T, src string) (*Session, string) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "a.py")
	require.NoError(t, os.WriteFile(abs, []byte(src), 0o644))
	s := NewSession([]Input{{Path: "a.py", Abs: abs}}, Options{Rules: nil, Jobs: 1, Root: dir})
	t.Cleanup(s.Close)
	return s, abs
}

// An edited buffer is parsed only where it changed (the session keeps the
// last version's tree), into the tree of a full parse.
func TestSessionSetReparsesTheEdit(t *testing.T) {
	src := "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n"
	s, abs := oneFileSession(t, src)
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

// A file whose tree was dropped without being packed (it needed no model)
// has no tree at hand: an edit is parsed whole, not the old text parsed
// again only to be reparsed.
func TestSessionSetParsesWhenNoTreeIsAtHand(t *testing.T) {
	s, abs := oneFileSession(t, "class A:\n    def f(self):\n        return 1\n")
	old := s.byPath["a.py"].file
	require.NotNil(t, old, "loaded")
	require.Nil(t, old.LoadedTree(), "its tree was dropped")
	require.Nil(t, old.packed, "and not packed")

	parsedAgain, spliced := s.r.trees.reparse.Load(), s.parser.Timing.Spliced
	edited := "class A:\n    def f(self):\n        return 2\n"
	s.Set(Input{Path: "a.py", Abs: abs, Src: []byte(edited)})
	require.Equal(t, parsedAgain, s.r.trees.reparse.Load(), "the old text is not parsed")
	require.Equal(t, spliced, s.parser.Timing.Spliced, "the new one is parsed whole")
	want, err := s.parser.Parse([]byte(edited))
	require.NoError(t, err)
	require.Equal(t, want.Pack(nil), s.byPath["a.py"].file.Tree().Pack(nil))
}
