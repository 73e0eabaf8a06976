package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/syntax"
)

// A packed tree that does not decode is parsed again: the file's tree is
// right whatever happened to the packed bytes.
func TestTreeFallsBackToParsing(t *testing.T) {
	p := syntax.NewParser()
	defer p.Close()
	src := []byte("def f(a):\n    return a[0]\n")
	want, err := p.Parse(src)
	require.NoError(t, err)
	for _, c := range []struct {
		damage  func([]byte) []byte
		reparse int64
	}{
		{func(b []byte) []byte { return b }, 0},               // intact: unpacked
		{func(b []byte) []byte { return b[:len(b)/2] }, 1},    // truncated
		{func(b []byte) []byte { return append(b, 1, 2) }, 1}, // trailing bytes
	} {
		loader := &treeLoader{}
		f := newFile("a.py", "", false, src, loader)
		tree, _ := p.Parse(src)
		f.SetTree(tree)
		f.packTree(nil)
		f.packed = c.damage(f.packed)
		got := f.Tree()
		assert.Equal(t, want.Len(), got.Len())
		assert.Equal(t, want.Line(2), got.Line(2))
		assert.Equal(t, int64(1), loader.unpacked.Load())
		assert.Equal(t, c.reparse, loader.reparse.Load())
		assert.Same(t, got, f.Tree())
	}
}
