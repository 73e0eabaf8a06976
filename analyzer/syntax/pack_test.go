package syntax

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// dump renders every stored field of every node.
func dump(t *Tree) []string {
	out := make([]string, t.Len())
	for i := range out {
		x := t.nodes[i]
		out[i] = fmt.Sprintf("%+v", x)
	}
	return out
}

func TestPackRoundTrip(t *testing.T) {
	p := NewParser()
	defer p.Close()
	total, packed := 0, 0
	for name, src := range equivalenceInputs(t) {
		tree, err := p.Parse(src)
		require.NoError(t, err)
		b := tree.Pack(nil)
		got, err := Unpack(src, b)
		require.NoError(t, err, name)
		require.Equal(t, dump(tree), dump(got), name)
		require.Equal(t, tree.lineStarts, got.lineStarts, name)
		require.Equal(t, tree.clean, got.clean, name)
		total += tree.Len() * 20
		packed += len(b)
	}
	t.Logf("packed %d bytes of nodes into %d", total, packed)
	require.Less(t, packed*2, total, "packing halves a tree at least")
}

// Damaged data is an error, never a panic or a tree pointing outside.
func TestUnpackRejectsDamage(t *testing.T) {
	p := NewParser()
	defer p.Close()
	src := []byte("def f(a):\n    if a:\n        return [x for x in a]\n    raise E('m')\n")
	tree, err := p.Parse(src)
	require.NoError(t, err)
	b := tree.Pack(nil)
	for i := range b {
		for _, flip := range []byte{0x01, 0x80, 0xff} {
			d := append([]byte(nil), b...)
			d[i] ^= flip
			if got, err := Unpack(src, d); err == nil {
				checkTree(t, got, len(src))
			}
		}
		_, err := Unpack(src, b[:i])
		require.Error(t, err, "truncated at %d", i)
	}
	_, err = Unpack(src[:10], b)
	require.Error(t, err, "positions past the end of the source")
}

// checkTree verifies that every relative and position of t is in range,
// the invariants accessors rely on.
func checkTree(t *testing.T, tr *Tree, srcLen int) {
	t.Helper()
	for i := 0; i < tr.Len(); i++ {
		n := NodeID(i)
		require.LessOrEqual(t, tr.StartByte(n), tr.EndByte(n))
		require.LessOrEqual(t, tr.EndByte(n), srcLen)
		require.Greater(t, tr.SubtreeEnd(n), n)
		require.LessOrEqual(t, int(tr.SubtreeEnd(n)), tr.Len())
		if p := tr.Parent(n); p != NoNode {
			require.Less(t, p, n)
			require.LessOrEqual(t, tr.SubtreeEnd(n), tr.SubtreeEnd(p))
		}
	}
}

func FuzzUnpack(f *testing.F) {
	p := NewParser()
	defer p.Close()
	src := []byte("class C(B):\n    def m(self, x=1):\n        return self.t[x]  # c\n")
	tree, _ := p.Parse(src)
	f.Add(src, tree.Pack(nil))
	f.Add([]byte("x"), []byte{1, 0, 1, 0, 1, 1})
	f.Fuzz(func(t *testing.T, src, packed []byte) {
		if tr, err := Unpack(src, packed); err == nil {
			checkTree(t, tr, len(src))
		}
	})
}
