package syntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sexp renders named nodes with their fields, for readable expectations.
func sexp(t *Tree, n NodeID) string {
	var b strings.Builder
	var walk func(n NodeID)
	walk = func(n NodeID) {
		if f := t.FieldOf(n); f != 0 {
			b.WriteString(f.String() + ": ")
		}
		b.WriteString("(" + t.Kind(n).String())
		for c := range t.NamedChildren(n) {
			b.WriteString(" ")
			walk(c)
		}
		b.WriteString(")")
	}
	walk(n)
	return b.String()
}

func parse(t *testing.T, src string) *Tree {
	t.Helper()
	p := NewParser()
	defer p.Close()
	tree, err := p.Parse([]byte(src))
	require.NoError(t, err)
	return tree
}

func TestFlattenShape(t *testing.T) {
	tree := parse(t, "if a is not None:\n    x = self.d[0]\n")
	assert.Equal(t, "(module (if_statement condition: (comparison_operator (identifier) (none)) consequence: (block (expression_statement (assignment left: (identifier) right: (subscript value: (attribute object: (identifier) attribute: (identifier)) subscript: (integer)))))))", sexp(tree, tree.Root()))
	cmp := NodeID(-1)
	for i := 0; i < tree.Len(); i++ {
		if tree.Kind(NodeID(i)) == ComparisonOperator {
			cmp = NodeID(i)
		}
	}
	require.NotEqual(t, NoNode, cmp)
	var ops []Kind
	for c := range tree.FieldAll(cmp, FOperators) {
		ops = append(ops, tree.Kind(c))
	}
	assert.Equal(t, []Kind{OpIsNot}, ops)
}

func TestKindsAreCanonical(t *testing.T) {
	canonical, _ := symbols()
	for _, k := range []Kind{Identifier, Call, Attribute, KwNot, OpIsNot, Block, AsPattern} {
		assert.Equal(t, k, canonical[k], k.String())
	}
	// Every kind a parsed tree carries equals the Kind variable of its name
	// (the grammar has aliased symbols; the variables must be canonical too).
	tree := parse(t, `import a.b as c
from .m import (x as y, z)
@dec(1)
class C(B, metaclass=M):
    def f(self, a: int = 1, *args, b, **kw) -> None:
        try:
            with open(a) as fh, lock:
                pass
        except (KeyError, ValueError) as e:
            raise RuntimeError("x") from e
        except* OSError:
            pass
        else:
            return [i for i in a if i], {k: v for k, v in kw.items()}, lambda q: q
        finally:
            del self.x[0]
        match a:
            case [1, *rest] | {"k": _} if rest:
                pass
        while not (a is not None and b not in c):
            a += -1 if a else 2
        assert (n := len(a)) > 0, f"{n!r}"
`)
	for i := 0; i < tree.Len(); i++ {
		n := NodeID(i)
		if tree.IsError(n) || tree.IsMissing(n) {
			continue
		}
		var want Kind
		if tree.IsNamed(n) {
			want = namedKind(tree.Kind(n).String())
		} else {
			want = anonKind(tree.Kind(n).String())
		}
		assert.Equal(t, want, tree.Kind(n), "node %d %s", i, tree.Kind(n))
	}
}

func TestSubtreeEndAndParents(t *testing.T) {
	tree := parse(t, "def f(a):\n    return a\nx = 1\n")
	for i := 0; i < tree.Len(); i++ {
		n := NodeID(i)
		end := tree.SubtreeEnd(n)
		for d := n + 1; d < end; d++ {
			// every node of the range descends from n
			p := d
			for p != NoNode && p != n {
				p = tree.Parent(p)
			}
			require.Equal(t, n, p, fmt.Sprintf("%d in subtree of %d", d, n))
		}
	}
}

func TestPositionsCountCodePoints(t *testing.T) {
	tree := parse(t, "s = 'é'; x = 1\n")
	var x NodeID = NoNode
	for i := 0; i < tree.Len(); i++ {
		if tree.Kind(NodeID(i)) == Identifier && tree.TextIs(NodeID(i), "x") {
			x = NodeID(i)
		}
	}
	require.NotEqual(t, NoNode, x)
	assert.Equal(t, Position{Line: 1, Column: 10}, tree.Start(x))
}

func TestErrorNodes(t *testing.T) {
	tree := parse(t, "def f(:\n  pass\n")
	found := false
	for i := 0; i < tree.Len(); i++ {
		if tree.IsError(NodeID(i)) || tree.IsMissing(NodeID(i)) {
			if tree.IsError(NodeID(i)) {
				assert.Equal(t, ErrorNode, tree.Kind(NodeID(i)))
			}
			found = true
		}
	}
	assert.True(t, found)
}

func TestDeepNesting(t *testing.T) {
	src := "x = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "\n"
	tree := parse(t, src)
	assert.Greater(t, tree.Len(), 5000)
}

// Every grammar name must map to the Kind the parser gives its nodes; the
// aliased symbols (block, as_pattern, ...) once did not.
func TestKindVarsAreCanonical(t *testing.T) {
	canonical, _ := symbols()
	for i := uint32(0); i < language.NodeKindCount(); i++ {
		name := language.NodeKindForId(uint16(i))
		named := language.NodeKindIsNamed(uint16(i))
		if name == "" || (!named && language.IdForNodeKind(name, false) == 0) {
			continue
		}
		var k Kind
		if named {
			k = namedKind(name)
		} else {
			k = anonKind(name)
		}
		assert.Equal(t, canonical[i], canonical[k], name)
		assert.Equal(t, canonical[k], k, name)
	}
	tree := parse(t, "try:\n    pass\nexcept E as e:\n    [a, b] = (c, d) = x\n")
	seen := map[Kind]bool{}
	for i := 0; i < tree.Len(); i++ {
		seen[tree.Kind(NodeID(i))] = true
	}
	for _, k := range []Kind{Block, AsPattern, ListPattern, TuplePattern} {
		assert.True(t, seen[k], k.String())
	}
}

// Accessors are total: an absent node (a missing field of a partial tree)
// has no kind, relatives or text, and an empty subtree.
func TestAbsentNode(t *testing.T) {
	tree := parse(t, "x = 1\n")
	for _, n := range []NodeID{NoNode, NodeID(tree.Len()), NodeID(tree.Len() + 100)} {
		assert.Equal(t, Kind(0), tree.Kind(n))
		assert.Equal(t, NoNode, tree.Parent(n))
		assert.Equal(t, NoNode, tree.Field(n, FName))
		assert.Equal(t, NoNode, tree.NamedChild(n, 0))
		assert.Equal(t, NoNode, tree.Unparen(n))
		assert.Equal(t, NoNode, tree.Ancestor(n, Module))
		assert.Equal(t, "", tree.Text(n))
		assert.False(t, tree.TextIs(n, "x"))
		assert.False(t, tree.IsError(n))
		assert.False(t, tree.Contains(n, 0))
		assert.Equal(t, n, tree.SubtreeEnd(n))
		for range tree.Children(n) {
			t.Fatal("absent node has children")
		}
		assert.Equal(t, Position{Line: 1, Column: 1}, tree.Start(n))
	}
}

// IsLoad tells the reads of a name from its bindings.
func TestIsLoad(t *testing.T) {
	src := "def f(x, y=x, *z, **w):\n    global g\n    x = x.x\n    for x in x: pass\n    (x := x)\n    a, x = x, b\n    h(x=x)\n    lambda x: x\n"
	tree := parse(t, src)
	var loads, binds []int
	for i := 0; i < tree.Len(); i++ {
		n := NodeID(i)
		if tree.Kind(n) != Identifier || !tree.TextIs(n, "x") {
			continue
		}
		if tree.IsLoad(n) {
			loads = append(loads, tree.Start(n).Line)
		} else {
			binds = append(binds, tree.Start(n).Line)
		}
	}
	// Line 1: parameter x, default value x; 3: target x, object x, attribute
	// .x; 4: target, iterable; 5: walrus name, value; 6: target, value; 7:
	// keyword, value; 8: lambda parameter, body.
	assert.Equal(t, []int{1, 3, 4, 5, 6, 7, 8}, loads)
	assert.Equal(t, []int{1, 3, 3, 4, 5, 6, 7, 8}, binds)
}

// ParenTop climbs out of every pair of parentheses, and no further.
func TestParenTop(t *testing.T) {
	tree := parse(t, "y = f(((a)), b)\n")
	var a, b NodeID = NoNode, NoNode
	for n := range tree.Len() {
		switch id := NodeID(n); {
		case tree.Kind(id) == Identifier && tree.TextIs(id, "a"):
			a = id
		case tree.Kind(id) == Identifier && tree.TextIs(id, "b"):
			b = id
		}
	}
	top := tree.ParenTop(a)
	assert.Equal(t, "((a))", tree.Text(top))
	assert.Equal(t, ArgumentList, tree.Kind(tree.Parent(top)))
	assert.Equal(t, a, tree.Unparen(top))
	assert.Equal(t, b, tree.ParenTop(b), "nothing to climb")
}

// ConstantIndex: an integer literal key, negated or parenthesised; not a
// slice, a name or a string.
func TestConstantIndex(t *testing.T) {
	tree := parse(t, "x[0]\nx[-1]\nx[(-2)]\nx[1:]\nx[i]\nx['k']\nf(0)\n")
	var got []bool
	for n := range tree.Len() {
		id := NodeID(n)
		if tree.Kind(id) == Subscript || tree.Kind(id) == Call {
			got = append(got, tree.ConstantIndex(id))
		}
	}
	assert.Equal(t, []bool{true, true, true, false, false, false, false}, got)
}
