package syntax

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	ts "github.com/tree-sitter/go-tree-sitter"
)

// equivalenceInputs are sources with every shape the flat tree must keep:
// nesting, fields, comments (extras), ERROR and MISSING nodes, an empty
// file, aliases (block, as_pattern), and the repository's Python fixtures.
func equivalenceInputs(t *testing.T) map[string][]byte {
	in := map[string][]byte{
		"empty":    nil,
		"comment":  []byte("# only a comment\n"),
		"error":    []byte("def f(:\n    x = (1,\n  y = [\nclass\n"),
		"missing":  []byte("f(a, b\nx = 1\n"),
		"patterns": []byte("match p:\n    case [a, *rest] as whole if a:\n        pass\n    case {'k': v, **kw}:\n        pass\n"),
		"nested":   []byte("class A(B, metaclass=M):\n    @d\n    async def f(self, *a, k=1, **kw) -> int:\n        with x as (y, z):\n            return [i async for i in g() if i]  # c\n"),
		"strings":  []byte("s = f'{x!r:>{w}}' 'b' \"\"\"doc\"\"\"\n"),
	}
	root := filepath.Join("..", "..", "testdata")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			if b, err := os.ReadFile(p); err == nil {
				in[p] = b
			}
		}
		return nil
	})
	require.Greater(t, len(in), 20, "the fixtures are found")
	return in
}

// The flat tree must say exactly what tree-sitter's own tree says, node by
// node, in preorder: kind, field, byte range, flags and every relative.
func TestFlatTreeMatchesTreeSitter(t *testing.T) {
	ref := ts.NewParser()
	defer ref.Close()
	require.NoError(t, ref.SetLanguage(language))
	p := NewParser()
	defer p.Close()
	for name, src := range equivalenceInputs(t) {
		flat, err := p.Parse(src)
		require.NoError(t, err, name)
		tst := ref.Parse(src, nil)
		require.NotNil(t, tst, name)
		var want []string
		var walk func(n *ts.Node, parent NodeID, field string)
		next := 0
		walk = func(n *ts.Node, parent NodeID, field string) {
			id := NodeID(next)
			next++
			kind := Kind(n.KindId())
			if canonical, _ := symbols(); int(kind) < len(canonical) {
				kind = canonical[kind]
			}
			want = append(want, fmt.Sprintf("%d kind=%s field=%q bytes=%d-%d named=%v missing=%v extra=%v error=%v parent=%d",
				id, kind, field, n.StartByte(), n.EndByte(), n.IsNamed(), n.IsMissing(), n.IsExtra(), n.IsError(), parent))
			c := n.Walk()
			defer c.Close()
			if c.GotoFirstChild() {
				for {
					walk(c.Node(), id, c.FieldName())
					if !c.GotoNextSibling() {
						break
					}
				}
			}
		}
		walk(tst.RootNode(), NoNode, "")
		tst.Close()

		var got []string
		for i := 0; i < flat.Len(); i++ {
			n := NodeID(i)
			got = append(got, fmt.Sprintf("%d kind=%s field=%q bytes=%d-%d named=%v missing=%v extra=%v error=%v parent=%d",
				n, flat.Kind(n), flat.FieldOf(n).String(), flat.StartByte(n), flat.EndByte(n), flat.IsNamed(n), flat.IsMissing(n), flat.IsExtra(n), flat.IsError(n), flat.Parent(n)))
		}
		require.Equal(t, want, got, name)

		// Relatives: children listed through FirstChild/NextSibling are the
		// nodes whose parent is n, in order; SubtreeEnd closes the preorder range.
		kids := map[NodeID][]NodeID{}
		for i := 1; i < flat.Len(); i++ {
			kids[flat.Parent(NodeID(i))] = append(kids[flat.Parent(NodeID(i))], NodeID(i))
		}
		for i := 0; i < flat.Len(); i++ {
			n := NodeID(i)
			var cs []NodeID
			for c := flat.FirstChild(n); c != NoNode; c = flat.NextSibling(c) {
				cs = append(cs, c)
			}
			require.Equal(t, kids[n], cs, "%s: children of %d", name, n)
			end := NodeID(flat.Len())
			for m := n; m != NoNode; m = flat.Parent(m) {
				if s := flat.NextSibling(m); s != NoNode {
					end = s
					break
				}
			}
			require.Equal(t, end, flat.SubtreeEnd(n), "%s: subtree end of %d", name, n)
		}
	}
}

// A tree parsed into the memory of an old one equals a fresh parse, and
// the old Tree reads as empty afterwards.
func TestParseReusing(t *testing.T) {
	p := NewParser()
	defer p.Close()
	srcs := [][]byte{
		[]byte("def f(a, b):\n    return [x * 2 for x in a if x] + list(b)\n" + strings.Repeat("y = 1\n", 50)),
		[]byte("x = 1\n"),
		[]byte("class C:\n    pass\n"),
		nil,
		[]byte("if a:\n    b(\n"),
	}
	var old *Tree
	for _, src := range srcs {
		fresh, err := p.Parse(src)
		require.NoError(t, err)
		prev := old
		got, err := p.ParseReusing(src, old)
		require.NoError(t, err)
		if prev != nil {
			require.Equal(t, 0, prev.Len(), "the given-up tree is emptied")
		}
		require.Equal(t, fresh.Len(), got.Len())
		for i := 0; i < got.Len(); i++ {
			n := NodeID(i)
			require.Equal(t, fmt.Sprint(fresh.Kind(n), fresh.FieldOf(n), fresh.StartByte(n), fresh.EndByte(n), fresh.Parent(n), fresh.SubtreeEnd(n), fresh.IsMissing(n)),
				fmt.Sprint(got.Kind(n), got.FieldOf(n), got.StartByte(n), got.EndByte(n), got.Parent(n), got.SubtreeEnd(n), got.IsMissing(n)))
		}
		require.Equal(t, fresh.Line(2), got.Line(2))
		old = got
	}
}
