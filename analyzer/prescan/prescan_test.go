package prescan

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClassesAndImports(t *testing.T) {
	src := `"""Module docstring that mentions
class NotAClass(Base):
and (an open bracket.
"""
import os, threading as th
import sglang.srt.utils
from typing import (
    Dict,  # a comment (with a bracket
    Optional as Opt,
)
from .base.conn import BaseKVManager, KVArgs
from ..common import *
from sglang.srt.disaggregation.common.conn import (
    CommonKVManager,
)


class MooncakeKVManager(CommonKVManager):
    def f(self):
        s = "class Fake(Base):"
        return s

    class Inner(
        pkg.mod.Base,  # split over lines
        Generic[T],
        metaclass=ABCMeta,
    ):
        pass


class Plain:
    x = """
class AlsoNot(Base):
"""


class Typed[T](Base): pass
class Tail(A, \
           B): pass
`
	f := Scan([]byte(src))
	var classes []string
	for _, c := range f.Classes {
		classes = append(classes, c.Name)
	}
	assert.Equal(t, []string{"MooncakeKVManager", "Inner", "Plain", "Typed", "Tail"}, classes)
	assert.Equal(t, []string{"CommonKVManager"}, f.Classes[0].Bases)
	assert.Equal(t, []string{"pkg.mod.Base", "Generic"}, f.Classes[1].Bases)
	assert.Empty(t, f.Classes[2].Bases)
	assert.Equal(t, []string{"Base"}, f.Classes[3].Bases)
	assert.Equal(t, []string{"A", "B"}, f.Classes[4].Bases)

	assert.Empty(t, f.Funcs)
	g := Scan([]byte("def send_kv(x):\n    def inner(): pass\nasync def poll():\n    pass\nclass C:\n    def m(self): pass\n"))
	assert.Equal(t, []string{"send_kv", "poll"}, g.Funcs)

	assert.Equal(t, []Import{
		{Name: "os", Module: "os"},
		{Name: "th", Module: "threading"},
		{Name: "sglang", Module: "sglang.srt.utils"},
		{Name: "Dict", Module: "typing", Member: "Dict"},
		{Name: "Opt", Module: "typing", Member: "Optional"},
		{Name: "BaseKVManager", Module: "base.conn", Level: 1, Member: "BaseKVManager"},
		{Name: "KVArgs", Module: "base.conn", Level: 1, Member: "KVArgs"},
		{Name: "*", Module: "common", Level: 2, Member: "*"},
		{Name: "CommonKVManager", Module: "sglang.srt.disaggregation.common.conn", Member: "CommonKVManager"},
	}, f.Imports)
}

// Hostile input ends; nothing panics.
func TestOddInput(t *testing.T) {
	for _, src := range []string{
		"", "class", "class (", "class A(", "from", "from . import", "import", `"""`, "x = (\n", "\\",
		"class A(B\n", "from x import (a,\n", "class \x00(\xff):", "'''\n" + string(make([]byte, 1000)),
	} {
		assert.NotPanics(t, func() { Scan([]byte(src)) }, "%q", src)
	}
	f := Scan([]byte("class A(B\n"))
	assert.Equal(t, []Class{{Name: "A", Bases: []string{"B"}}}, f.Classes, "an unclosed header still names its bases")
}

func TestAttrs(t *testing.T) {
	src := `
class Info:
    """Doc."""
    kind: Optional[str] = None
    size = 0
    count == 3

    def __init__(self, x):
        self.ptrs = x
        self.region: Region = make()
        local = 1
        if self.ptrs == x:
            pass
        myself.other = 2


def f(self):
    self.late = 1
    top: int = 2
`
	f := Scan([]byte(src))
	assert.Equal(t, []string{"kind", "size", "ptrs", "region", "late"}, f.Attrs)
}
