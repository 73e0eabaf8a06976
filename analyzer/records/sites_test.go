package records

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

// messageOf returns the template of the message of the first raise or
// assert in src.
func messageOf(t *testing.T, src string) (string, bool) {
	tree := syntaxtest.Parse(t, src)
	for i := 0; i < tree.Len(); i++ {
		n := syntax.NodeID(i)
		switch tree.Kind(n) {
		case syntax.RaiseStatement:
			call := tree.NamedChild(n, 0)
			tp, ok := TemplateOf(tree, firstPositional(tree, tree.Field(call, syntax.FArguments)))
			return tp.String(), ok
		case syntax.AssertStatement:
			tp, ok := TemplateOf(tree, tree.NamedChild(n, 1))
			return tp.String(), ok
		}
	}
	t.Fatalf("no raise in %q", src)
	return "", false
}

func TestTemplateOf(t *testing.T) {
	cases := []struct {
		src, want string
		ok        bool
	}{
		{`raise E("plain")`, "plain", true},
		{`raise E('single' "double")`, "singledouble", true},
		{`raise E("tab\there\\n \x41\u00e9\101 \q")`, "tab\there\\n Aé" + "A \\q", true},
		{`raise E(r"raw\d+")`, `raw\d+`, true},
		{`raise E(f"No plan for {peer!r:>10} x {{y}}")`, "No plan for … x {y}", true},
		{`raise E(f"{a}{b}")`, "…", true},
		{`raise E("a %s b %(n)d c %-5.2f %% d %*d" % (x,))`, "a … b … c … % d …", true},
		{`raise E("100%")`, "100%", true},
		{`raise E("100%% sure" % ())`, "100% sure", true},
		{`raise E("50% off" % ())`, "50…ff", true}, // "% o" is a conversion (space flag), as in Python
		{`raise E("a {} b {0} c {name!r:>{w}} {{d}}".format(1))`, "a … b … c … {d}", true},
		{`raise E("plain {x}")`, "plain {x}", true},
		{`raise E("a " + str(x) + " b")`, "a … b", true},
		{`raise E(prefix + ": failed")`, "…: failed", true},
		{`raise E(("paren"))`, "paren", true},
		{"def f():\n    msg = f\"bad {x}\"\n    raise E(msg)\n", "bad …", true},
		{"def f():\n    msg = 'a'\n    msg = 'b'\n    raise E(msg)\n", "", false},
		{"def f():\n    msg = 'a'\n    msg += 'b'\n    raise E(msg)\n", "ab", true},
		{"def f():\n    msg = f'peer {p}'\n    if x:\n        msg += ' (retry)'\n    msg += ' failed'\n    raise E(msg)\n", "peer … failed", true},
		{"def f():\n    msg = 'a'\n    msg *= 2\n    raise E(msg)\n", "", false},
		{"def f():\n    msg = 'a'\n    raise E(msg)\n    msg += 'later'\n", "a", true},
		{"def f(msg):\n    raise E(msg)\n", "", false},
		{"msg = 'module'\ndef f():\n    raise E(msg)\n", "", false},
		{`raise E(str(e))`, "", false},
		{`raise E(a + b)`, "", false},
		{`assert x, "m %d" % i`, "m …", true},
	}
	for _, c := range cases {
		got, ok := messageOf(t, c.src)
		assert.Equal(t, c.ok, ok, c.src)
		if c.ok {
			assert.Equal(t, c.want, got, c.src)
		}
	}
}

func TestConditions(t *testing.T) {
	src := `def f(self, peer, x):
    if not self.descs:
        raise RuntimeError("a")
    if peer not in self.table:
        pass
    elif x is None:
        raise RuntimeError("b")
    else:
        raise RuntimeError("c")
    assert self.ring is not None, "d"
    for y in x:
        if y > 3 and y < 9:
            raise RuntimeError("e")
    raise RuntimeError("f")
    if (a or
            b) and c:
        if d or e:
            raise RuntimeError("a")
`
	tree := syntaxtest.Parse(t, src)
	set := NewSet([]*Record{{ID: "r", ErrorClass: "RuntimeError", MessagePattern: "[a-f]"},
		{ID: "s", ErrorClass: "AssertionError", MessagePattern: "d"}})
	sites := set.Find(tree)
	var got []string
	for _, s := range sites {
		got = append(got, s.Template.String()+": "+CondText(tree, s.Conds))
	}
	assert.Equal(t, []string{
		"a: not self.descs",
		"b: peer in self.table and x is None",
		"c: peer in self.table and x is not None",
		"d: self.ring is None",
		"e: y > 3 and y < 9",
		"f: ",
		"a: (a or b) and c and (d or e)",
	}, got)
	assert.True(t, sites[3].IsAssert(tree))
	assert.Equal(t, syntax.NoNode, sites[3].Class)
	assert.False(t, sites[0].IsAssert(tree))
}

func TestFindClassAndMessage(t *testing.T) {
	src := `import errors
def f(x):
    raise RuntimeError("KV memory descriptors are empty on prefill side")
    raise ValueError("KV memory descriptors are empty on prefill side")
    raise errors.RuntimeError("KV memory descriptors are empty on prefill side") from x
    raise RuntimeError
    raise RuntimeError(message="KV memory descriptors are empty on prefill side")
    raise RuntimeError("KV memory descriptors are empty on prefill side, again")
    assert x, "KV memory descriptors are empty on prefill side"
`
	tree := syntaxtest.Parse(t, src)
	set := NewSet([]*Record{{ID: "r", ErrorClass: "builtins.RuntimeError", MessagePattern: "KV memory descriptors are empty on prefill side"}})
	sites := set.Find(tree)
	require.Len(t, sites, 2)
	assert.Equal(t, 3, tree.Start(sites[0].Stmt).Line)
	assert.Equal(t, 5, tree.Start(sites[1].Stmt).Line, "a dotted class matches by its last name")
	assert.Nil(t, (*Set)(nil).Find(tree))
}

// The fixture records against the fixture code: one site each, none for
// the stale record (testdata/records/README.md).
func TestFindFixtureSites(t *testing.T) {
	set, err := Load(filepath.Join(testdata, "own"), filepath.Join(testdata, "jsonl"+"/records.jsonl"))
	require.NoError(t, err)
	counts := sitesIn(t, set, "../../testdata/rules/sgl010/plans.py")
	assert.Equal(t, map[string][]int{
		"a1f0c0de00000001": {29},
		"a1f0c0de00000002": {45},
		"a1f0c0de00000003": {60},
		"a1f0c0de00000004": {74},
		"a1f0c0de00000006": {86},
		"a1f0c0de00000007": {95},
		"a1f0c0de00000008": {103},
	}, counts)

	seed, err := Load(filepath.Join(testdata, "seed"))
	require.NoError(t, err)
	assert.Equal(t, map[string][]int{"795554d942550d42": {26}}, sitesIn(t, seed, "../../testdata/rules/sgl001/record_shape.py"))
	assert.Equal(t, map[string][]int{"795554d942550d42": {18}}, sitesIn(t, seed, "../../testdata/rules/sgl001/worker_handlers.py"))
	assert.Equal(t, map[string][]int{"d0bf6111ca6909b6": {45, 79}}, sitesIn(t, seed, "../../testdata/rules/sgl002/writer.py"))
}

func sitesIn(t *testing.T, set *Set, path string) map[string][]int {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	tree := syntaxtest.Parse(t, string(src))
	out := map[string][]int{}
	for _, s := range set.Find(tree) {
		out[s.Record.ID] = append(out[s.Record.ID], tree.Start(s.Stmt).Line)
	}
	return out
}

// MayHold is exact where it answers no: every file with a site holds the
// raised class's name (or `assert`), and Find agrees on the others.
func TestMayHold(t *testing.T) {
	set := NewSet([]*Record{{ID: "r", ErrorClass: "transfer.TransferError", MessagePattern: "peer .* is gone"},
		{ID: "a", ErrorClass: "AssertionError", MessagePattern: "frame must start with the guard"}})
	for src, want := range map[string]bool{
		"x = 1\n": false,
		"raise errors.TransferError(f'peer {p} is gone')\n":       true,
		"assert msg[0] == G, 'frame must start with the guard'\n": true,
		"raise RuntimeError(f'peer {p} is gone')\n":               false,
	} {
		assert.Equal(t, want, set.MayHold([]byte(src)), src)
		if !want {
			assert.Empty(t, set.Find(syntaxtest.Parse(t, src)), src)
		}
	}
	assert.False(t, (*Set)(nil).MayHold([]byte("raise TransferError('x')")))
}

// An errorClass matches the subclasses the file defines (issue 30): a
// project's own exception classes derive from the recorded one.
func TestFindSubclassesOfTheRecordedClass(t *testing.T) {
	src := `class TransferError(RuntimeError):
    pass

class RoomGoneError(TransferError, metaclass=Meta):
    pass

class Unrelated(ValueError):
    pass

class Both(TransferError, RuntimeError):
    pass

def f(x):
    raise RoomGoneError("KV memory descriptors are empty on prefill side")
    raise Unrelated("KV memory descriptors are empty on prefill side")
    raise errors.TransferError("KV memory descriptors are empty on prefill side")
    raise Both("KV memory descriptors are empty on prefill side")
    raise ImportedError("KV memory descriptors are empty on prefill side")
`
	tree := syntaxtest.Parse(t, src)
	set := NewSet([]*Record{{ID: "r", ErrorClass: "RuntimeError", MessagePattern: "KV memory descriptors are empty on prefill side"}})
	var lines []int
	for _, s := range set.Find(tree) {
		lines = append(lines, tree.Start(s.Stmt).Line)
	}
	assert.Equal(t, []int{14, 16, 17}, lines, "RoomGoneError, TransferError (dotted), Both once; not Unrelated, not a class defined elsewhere")
}
