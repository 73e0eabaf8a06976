package pymodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/syntax"
)

func TestExprAndItemClass(t *testing.T) {
	src := map[string]string{"m.py": `
from typing import Dict

class Info:
    @classmethod
    def from_msg(cls, msg):
        return cls()

    @classmethod
    def maybe(cls, msg):
        if msg:
            return cls()
        return None

class Other:
    pass

class Mgr:
    def __init__(self):
        self.infos = {}
        self.typed: Dict[str, Other] = {}
        self.mixed = {}

    def add(self, k, info: Info, msg):
        self.infos[k] = info
        self.infos[k + "x"] = Info.from_msg(msg)
        self.mixed[k] = Info()
        self.mixed[k + "y"] = Other()

    def use(self, k, msg):
        a = self.infos[k]
        b = self.infos.get(k)
        c = self.typed[k]
        d = self.mixed[k]
        e = Info.maybe(msg)
        return a, b, c, d, e
`}
	ix, fl := flowProject(t, src)
	mgr, ok := ix.ClassByName("m.Mgr")
	require.True(t, ok)
	info, _ := ix.ClassByName("m.Info")
	other, _ := ix.ClassByName("m.Other")

	c, ok := fl.ItemClass(mgr, "infos")
	require.True(t, ok, "stores of an annotated parameter and of a classmethod that returns cls(...)")
	assert.Equal(t, info, c)
	c, ok = fl.ItemClass(mgr, "typed")
	require.True(t, ok)
	assert.Equal(t, other, c)
	_, ok = fl.ItemClass(mgr, "mixed")
	assert.False(t, ok, "stores disagree")

	use, ok := ix.FuncByName("m.Mgr.use")
	require.True(t, ok)
	tree := fl.tree(use.File)
	value := func(name string) syntax.NodeID {
		for i := 0; i < tree.Len(); i++ {
			n := syntax.NodeID(i)
			if tree.Kind(n) == syntax.Assignment && tree.TextIs(tree.Field(n, syntax.FLeft), name) {
				return tree.Field(n, syntax.FRight)
			}
		}
		t.Fatalf("no assignment to %s", name)
		return syntax.NoNode
	}
	for name, want := range map[string]ClassRef{"a": info, "b": info, "c": other} {
		got, ok := fl.ExprClass(use, value(name))
		require.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	for _, name := range []string{"d", "e"} {
		_, ok := fl.ExprClass(use, value(name))
		assert.False(t, ok, "%s: disagreeing stores; a classmethod that may return None", name)
	}
}
