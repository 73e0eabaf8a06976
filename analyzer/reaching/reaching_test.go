package reaching

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

// find returns the innermost of the first nodes whose text is s.
func find(t testing.TB, tree *syntax.Tree, s string) syntax.NodeID {
	t.Helper()
	found := syntax.NoNode
	for i := 0; i < tree.Len(); i++ {
		if tree.Text(syntax.NodeID(i)) == s {
			found = syntax.NodeID(i)
		} else if found != syntax.NoNode && !tree.Contains(found, syntax.NodeID(i)) {
			break
		}
	}
	if found == syntax.NoNode {
		t.Fatalf("no node %q", s)
	}
	return found
}

// reach analyses the first function of src and describes the definitions
// of name reaching the node whose text is at: "kind:line:value" each.
func reach(t *testing.T, src, at, name string) []string {
	t.Helper()
	tree := syntaxtest.Parse(t, src)
	var root syntax.NodeID = syntax.NoNode
	for i := 0; i < tree.Len(); i++ {
		if tree.Kind(syntax.NodeID(i)) == syntax.FunctionDefinition {
			root = syntax.NodeID(i)
			break
		}
	}
	require.NotEqual(t, syntax.NoNode, root)
	r := Analyze(cfg.New(tree, root))
	var out []string
	for _, d := range r.Reaching(find(t, tree, at), name) {
		def := r.Def(d)
		v := "-"
		if def.Value != syntax.NoNode {
			v = tree.Text(def.Value)
		}
		out = append(out, fmt.Sprintf("%s:%d:%s", def.Kind, tree.Start(def.Target).Line, v))
	}
	return out
}

func TestBranches(t *testing.T) {
	src := `def f(c):
    kind = None
    if c:
        kind = pick()
    use(kind)
`
	assert.Equal(t, []string{"assign:2:None", "assign:4:pick()"}, reach(t, src, "use(kind)", "kind"))

	src = `def f(c):
    kind = None
    if c:
        kind = pick()
    else:
        kind = "VRAM"
    use(kind)
`
	assert.Equal(t, []string{"assign:4:pick()", `assign:6:"VRAM"`}, reach(t, src, "use(kind)", "kind"))
}

func TestTry(t *testing.T) {
	// The handler leaves: after the try, kind came from pick().
	exits := `def f():
    kind = None
    try:
        kind = pick()
    except ValueError:
        return other()
    use(kind)
`
	assert.Equal(t, []string{"assign:4:pick()"}, reach(t, exits, "use(kind)", "kind"))
	// In the handler itself only the binding before the try is possible.
	assert.Equal(t, []string{"assign:2:None"}, reach(t, exits, "other()", "kind"))

	swallows := `def f():
    kind = None
    try:
        kind = pick()
    except ValueError:
        note()
    use(kind)
`
	assert.Equal(t, []string{"assign:2:None", "assign:4:pick()"}, reach(t, swallows, "use(kind)", "kind"))

	// An exception after the binding completed: the handler may see either.
	later := `def f():
    kind = None
    try:
        kind = pick()
        check(kind)
    except ValueError:
        note(kind)
`
	assert.Equal(t, []string{"assign:2:None", "assign:4:pick()"}, reach(t, later, "note(kind)", "kind"))

	// finally: the exceptional copy re-raises, so only the normal path
	// continues.
	fin := `def f():
    kind = None
    try:
        kind = pick()
    finally:
        done()
    use(kind)
`
	assert.Equal(t, []string{"assign:4:pick()"}, reach(t, fin, "use(kind)", "kind"))
}

func TestParamsAndScopes(t *testing.T) {
	src := `def f(a, b: int, kind=None, d: str = "x", *rest, e=1, **kw):
    use(kind, a, rest, kw)
`
	assert.Equal(t, []string{"param:1:None"}, reach(t, src, "use(kind, a, rest, kw)", "kind"))
	assert.Equal(t, []string{"param:1:-"}, reach(t, src, "use(kind, a, rest, kw)", "a"))
	assert.Equal(t, []string{"param:1:-"}, reach(t, src, "use(kind, a, rest, kw)", "rest"))
	assert.Equal(t, []string{"param:1:-"}, reach(t, src, "use(kind, a, rest, kw)", "kw"))

	src = `def f(kind=None):
    if kind is None:
        kind = "VRAM"
    use(kind)
`
	assert.Equal(t, []string{"param:1:None", `assign:3:"VRAM"`}, reach(t, src, "use(kind)", "kind"))

	// global and nonlocal names are not local; nested scopes bind nothing.
	src = `def f():
    global kind
    kind = None
    g = lambda x: x
    vals = [y for y in range(3)]
    use(kind, x, y)
`
	assert.Empty(t, reach(t, src, "use(kind, x, y)", "kind"))
	assert.Empty(t, reach(t, src, "use(kind, x, y)", "x"))
	assert.Empty(t, reach(t, src, "use(kind, x, y)", "y"))
}

func TestBindingForms(t *testing.T) {
	src := `def f(m):
    a = b = None
    c, (d, e) = pair()
    for i, j in items:
        pass
    with open(m) as h, m as (k, l):
        pass
    try:
        pass
    except E as err:
        pass
    (w := 3)
    n = 1
    n += 2
    import os.path, p as q
    from s import t as u, v
    def g(): pass
    del a
    use()
`
	tree := syntaxtest.Parse(t, src)
	root := tree.Parent(find(t, tree, "f"))
	r := Analyze(cfg.New(tree, root))
	got := map[string]string{}
	for _, d := range r.Defs() {
		got[d.Name] += d.Kind.String() + " "
	}
	want := map[string]string{
		"m": "param ", "a": "assign delete ", "b": "assign ", "c": "unpack ", "d": "unpack ",
		"e": "unpack ", "i": "loop ", "j": "loop ", "h": "as ", "k": "as ", "l": "as ",
		"err": "as ", "w": "assign ", "n": "assign augment ", "os": "import ", "q": "import ",
		"u": "import ", "v": "import ", "g": "define ",
	}
	for k, v := range want {
		assert.Equal(t, v, got[k], k)
	}
	assert.Len(t, got, len(want))
	use := find(t, tree, "use()")
	ds := r.Reaching(use, "a")
	require.Len(t, ds, 1)
	assert.Equal(t, Delete, r.Def(ds[0]).Kind)
	ds = r.Reaching(use, "b")
	require.Len(t, ds, 1)
	assert.Equal(t, "None", tree.Text(r.Def(ds[0]).Value))
	ds = r.Reaching(use, "n")
	require.Len(t, ds, 1)
	assert.Equal(t, Augment, r.Def(ds[0]).Kind)
	assert.True(t, r.IsLocal("os"))
	assert.False(t, r.IsLocal("open"))
}

func TestLoops(t *testing.T) {
	src := `def f(xs):
    kind = None
    for x in xs:
        use(kind)
        kind = x
    done(kind)
`
	assert.Equal(t, []string{"assign:2:None", "assign:5:x"}, reach(t, src, "use(kind)", "kind"))
	assert.Equal(t, []string{"assign:2:None", "assign:5:x"}, reach(t, src, "done(kind)", "kind"))
}

func TestConditionalPartsAreSeparate(t *testing.T) {
	// The arms of a conditional expression are evaluated in blocks of their
	// own; a walrus in one arm binds only on its path.
	src := `def f(c):
    kind = None
    x = (kind := pick()) if c else other()
    use(kind)
`
	assert.Equal(t, []string{"assign:2:None", "assign:3:pick()"}, reach(t, src, "use(kind)", "kind"))
}

func TestHostileInputs(t *testing.T) {
	for _, src := range []string{
		"",
		"def f(:\n  x = \n",
		"def f():\n    x = " + strings.Repeat("(", 500) + "1" + strings.Repeat(")", 500) + "\n    use(x)\n",
		"def f(x=None, *, y):\n    match x:\n        case Point(x=0, y=yy):\n            use(yy)\n",
	} {
		tree := syntaxtest.Parse(t, src)
		for _, root := range cfg.Roots(tree) {
			r := Analyze(cfg.New(tree, root))
			for i := 0; i < tree.Len(); i++ {
				r.Reaching(syntax.NodeID(i), "x")
			}
		}
	}
}

func TestCut(t *testing.T) {
	src := `def f(table, key):
    kind = table.get(key)
    if kind is None:
        kind = other()
    use(kind)
`
	tree := syntaxtest.Parse(t, src)
	root := tree.Parent(find(t, tree, "f"))
	g := cfg.New(tree, root)
	use := find(t, tree, "use(kind)")
	plain := Analyze(g)
	assert.Len(t, plain.Reaching(use, "kind"), 2)

	// Cutting kind on the edge where `kind is None` is false leaves only
	// the binding made under the check.
	calls := 0
	r := AnalyzeWith(g, Options{Cut: func(b cfg.BlockID, i int, e cfg.Edge) []string {
		calls++
		if tree.TextIs(e.Cond, "kind is None") && !e.Value {
			return []string{"kind", "not_a_local"}
		}
		return nil
	}})
	ds := r.Reaching(use, "kind")
	require.Len(t, ds, 1)
	assert.Equal(t, "other()", tree.Text(r.Def(ds[0]).Value))
	assert.Equal(t, 2, calls) // the two edges of the condition
}
