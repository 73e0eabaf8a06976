package pymodel

import (
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// project summarises in-memory files (paths relative to the root) and
// indexes them.
func project(t testing.TB, files map[string]string) *Index {
	t.Helper()
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var srcs []SourceFile
	for _, p := range paths {
		mod, pkg := ModuleName("", p)
		srcs = append(srcs, SourceFile{Path: p, Module: mod, Package: pkg, Summary: summarize(t, files[p])})
	}
	return NewIndex(srcs)
}

func mustFunc(t testing.TB, ix *Index, qual string) FuncRef {
	t.Helper()
	r, ok := ix.FuncByName(qual)
	require.True(t, ok, "no function %s", qual)
	return r
}

func mustClass(t testing.TB, ix *Index, qual string) ClassRef {
	t.Helper()
	r, ok := ix.ClassByName(qual)
	require.True(t, ok, "no class %s", qual)
	return r
}

func TestModuleName(t *testing.T) {
	tests := []struct {
		root, path string
		want       string
		pkg        bool
	}{
		{"", "pkg/sub/mod.py", "pkg.sub.mod", false},
		{"", "pkg/__init__.py", "pkg", true},
		{"", "./pkg/a.py", "pkg.a", false},
		{"/r", "/r/python/sglang/srt/conn.py", "python.sglang.srt.conn", false},
		{"/r/python", "/r/python/sglang/srt/__init__.py", "sglang.srt", true},
		{"", "my-project/pkg/mod.py", "pkg.mod", false}, // not an identifier: dropped
		{"", "mod.pyi", "mod", false},
		{"/r", "/elsewhere/pkg/m.py", "elsewhere.pkg.m", false},
		// A relative root (analysistest passes the fixture directory) and
		// a path relative to the working directory.
		{"testdata/proj", "testdata/proj/mod.py", "mod", false},
		{"testdata/proj", "./testdata/proj/pkg/__init__.py", "pkg", true},
	}
	for _, tc := range tests {
		got, pkg := ModuleName(tc.root, tc.path)
		assert.Equal(t, tc.want, got, tc.path)
		assert.Equal(t, tc.pkg, pkg, tc.path)
	}
}

// kvProject is a small project in the shape of a KV transfer backend: a
// base manager, a common manager, and a backend subclass in another
// package, with a dataclass and relative imports.
var kvProject = map[string]string{
	"pkg/__init__.py": `from .common.conn import CommonKVManager
`,
	"pkg/base/__init__.py": ``,
	"pkg/base/conn.py": `from abc import ABC, abstractmethod
from typing import List

class KVArgs:
    kv_data_ptrs: List[int]

    def reset(self):
        self.kv_data_ptrs = []

class BaseKVManager(ABC):
    @abstractmethod
    def send(self, info):
        ...
`,
	"pkg/common/__init__.py": ``,
	"pkg/common/conn.py": `from dataclasses import dataclass
from typing import Optional
from ..base.conn import BaseKVManager, KVArgs

class KVTransferError(Exception):
    pass

@dataclass
class RegisterInfo:
    endpoint: str
    dst_kind: Optional[str] = None

class CommonKVManager(BaseKVManager):
    def __init__(self, args: KVArgs):
        self.kv_args = args
        self.table = {}
        self.register()

    def register(self):
        pass

    def run(self):
        self.hook()

    def hook(self):
        pass

    def update_status(self, room):
        self.table[room] = 1
`,
	"pkg/mori/__init__.py": ``,
	"pkg/mori/conn.py": `import threading
from typing import Optional
from ..common.conn import CommonKVManager, RegisterInfo, KVTransferError
from pkg.common import conn as cc
import pkg.base.conn

class MoriRegisterInfo(cc.RegisterInfo):
    gpu: int = 0

def prepare(info: RegisterInfo):
    info.dst_kind = "gpu"
    info.segments.append(1)

class MoriKVManager(CommonKVManager):
    def __init__(self, args):
        super().__init__(args)
        self.descs = []
        self._register_local()
        threading.Thread(target=self.worker, daemon=True).start()

    def _register_local(self):
        for p in self.kv_args.kv_data_ptrs:
            self.descs.append(p)

    def worker(self):
        def inner():
            self.update_status(1)
        while True:
            try:
                self.send_kv(MoriRegisterInfo("e"))
            except KVTransferError:
                self.fail()
            inner()

    def send_kv(self, info: RegisterInfo):
        if not self.descs:
            raise KVTransferError("KV memory descriptors are empty")
        prepare(info)
        return self.descs[0]

    def fail(self):
        self.reset_args()

    def reset_args(self):
        self.kv_args.reset()

    def hook(self):
        self.descs.clear()

    def lookup(self, k) -> Optional[int]:
        return self.table.get(k)

class MoriSender:
    def __init__(self, mgr: MoriKVManager):
        self.kv_mgr = mgr

    def send(self, info):
        self.kv_mgr.send_kv(info)
        m = MoriKVManager(None)
        m.hook()
        MoriKVManager.fail(m)
        pkg.base.conn.KVArgs().reset()
`,
}

func TestIndexModulesAndResolve(t *testing.T) {
	ix := project(t, kvProject)
	f, ok := ix.ModuleFile("pkg.mori.conn")
	require.True(t, ok)
	fn := mustFunc(t, ix, "pkg.mori.conn.MoriKVManager.worker")
	tests := []struct {
		name string
		kind SymKind
		qual string
	}{
		{"CommonKVManager", SymClass, "pkg.common.conn.CommonKVManager"},
		{"RegisterInfo", SymClass, "pkg.common.conn.RegisterInfo"},
		{"cc", SymModule, "pkg.common.conn"},
		{"cc.RegisterInfo", SymClass, "pkg.common.conn.RegisterInfo"},
		{"pkg", SymModule, "pkg"},
		{"pkg.CommonKVManager", SymClass, "pkg.common.conn.CommonKVManager"}, // re-exported by pkg/__init__
		{"pkg.base.conn.KVArgs", SymClass, "pkg.base.conn.KVArgs"},
		{"threading.Thread", SymExternal, "threading.Thread"},
		{"Optional", SymExternal, "typing.Optional"},
		{"KeyError", SymExternal, "KeyError"},
		{"prepare", SymFunc, "pkg.mori.conn.prepare"},
		{"MoriKVManager.send_kv", SymFunc, "pkg.mori.conn.MoriKVManager.send_kv"},
		{"MoriKVManager.update_status", SymFunc, "pkg.common.conn.CommonKVManager.update_status"},
		{"inner", SymFunc, "pkg.mori.conn.MoriKVManager.worker.inner"},
		{"undefined_name", SymNone, ""},
	}
	for _, tc := range tests {
		sym := ix.Resolve(f, fn.Func, tc.name)
		assert.Equal(t, tc.kind, sym.Kind, tc.name)
		assert.Equal(t, tc.qual, sym.Name, tc.name)
	}
	// A name local to worker is not visible at module level.
	assert.Equal(t, SymNone, ix.Resolve(f, -1, "inner").Kind)
}

func TestMROAndLookup(t *testing.T) {
	ix := project(t, kvProject)
	mori := mustClass(t, ix, "pkg.mori.conn.MoriKVManager")
	var names []string
	for _, b := range ix.MRO(mori) {
		names = append(names, fmt.Sprintf("%s ext=%v", b.Name, b.External()))
	}
	assert.Equal(t, []string{
		"pkg.mori.conn.MoriKVManager ext=false",
		"pkg.common.conn.CommonKVManager ext=false",
		"pkg.base.conn.BaseKVManager ext=false",
		"abc.ABC ext=true",
	}, names)

	m := ix.LookupMethod(mori, "update_status")
	assert.Equal(t, "pkg.common.conn.CommonKVManager.update_status", ix.FuncName(m.Func))
	assert.Empty(t, m.Opaque)
	m = ix.LookupMethod(mori, "send")
	assert.Equal(t, "pkg.base.conn.BaseKVManager.send", ix.FuncName(m.Func))
	m = ix.LookupMethod(mori, "nowhere")
	assert.False(t, m.Func.Valid())
	assert.Equal(t, []string{"abc.ABC"}, m.Opaque, "an external base may define it")

	common := mustClass(t, ix, "pkg.common.conn.CommonKVManager")
	assert.Equal(t, []ClassRef{mori}, ix.Subclasses(common))

	// Diamond: C3 order.
	dx := project(t, map[string]string{"d.py": `
class A: pass
class B(A): pass
class C(A): pass
class D(B, C): pass
class E(E): pass
`})
	names = nil
	for _, b := range dx.MRO(mustClass(t, dx, "d.D")) {
		names = append(names, b.Name)
	}
	assert.Equal(t, []string{"d.D", "d.B", "d.C", "d.A"}, names)
	assert.Len(t, dx.MRO(mustClass(t, dx, "d.E")), 2, "a self-inheriting class is cut, not looped")
}

func TestAttrAcrossFiles(t *testing.T) {
	ix := project(t, kvProject)
	sub := mustClass(t, ix, "pkg.mori.conn.MoriRegisterInfo")
	a := ix.Attr(sub, "dst_kind")
	assert.True(t, a.Optional, "Optional in the base dataclass of another file")
	assert.Equal(t, "Optional[str]", a.Annotation)
	require.Len(t, a.NoneAt, 1)
	assert.Equal(t, "pkg.common.conn.RegisterInfo", ix.ClassName(a.NoneAt[0].Class))
	assert.False(t, ix.Attr(sub, "endpoint").Optional)

	mori := mustClass(t, ix, "pkg.mori.conn.MoriKVManager")
	k := ix.Attr(mori, "kv_args")
	require.Len(t, k.Assigns, 1)
	assert.Equal(t, "pkg.common.conn.CommonKVManager", ix.ClassName(k.Assigns[0].Class))
	assert.Equal(t, []string{"abc.ABC"}, k.Opaque)
	c, ok := ix.AttrType(mori, "kv_args")
	require.True(t, ok, "typed through the annotated parameter it is assigned from")
	assert.Equal(t, "pkg.base.conn.KVArgs", ix.ClassName(c))

	var uses []string
	for _, u := range ix.SelfUses(mori, "descs") {
		x := ix.Use(u)
		uses = append(uses, fmt.Sprintf("%s %s %s", ix.Func(FuncRef{u.File, x.Func}).Name, x.Kind, x.Op))
	}
	assert.Equal(t, []string{
		"__init__ assign ", "_register_local mutate append", "send_kv read plain",
		"send_kv read index", "hook mutate clear",
	}, uses)
	assert.Contains(t, ix.SelfPaths(mori), "kv_args.kv_data_ptrs")
	assert.Contains(t, ix.SelfPaths(mori), "table")
}

func TestCoreType(t *testing.T) {
	for in, want := range map[string]string{
		"Foo": "Foo", "'Foo'": "Foo", `"mod.Foo"`: "mod.Foo", "Optional[Foo]": "Foo",
		"typing.Optional['Foo']": "Foo", "Foo | None": "Foo", "None | Foo": "Foo",
		"Union[Foo, None]": "Foo", "Union[Foo, Bar]": "", "List[Foo]": "", "None": "",
		"Optional[Union[None, Foo]]": "Foo",
	} {
		assert.Equal(t, want, coreType(in), in)
	}
}

// callLines renders the resolved calls of the functions of a module.
func callLines(ix *Index, module string) []string {
	f, _ := ix.ModuleFile(module)
	s := ix.Summary(f)
	var out []string
	for ci := range s.Calls {
		site := CallSite{f, int32(ci)}
		c := &s.Calls[ci]
		where := "<module>"
		if c.Func >= 0 {
			where = s.Functions[c.Func].QualName
		}
		for _, cal := range ix.Callees(site) {
			target := cal.External
			if cal.Func.Valid() {
				target = ix.FuncName(cal.Func)
			}
			v := ""
			if cal.Virtual {
				v = " virtual"
			}
			out = append(out, fmt.Sprintf("%s: %s -> %s %s%s", where, c.Callee(), cal.Kind, target, v))
		}
	}
	return out
}

func TestCallResolution(t *testing.T) {
	ix := project(t, kvProject)
	got := callLines(ix, "pkg.mori.conn")
	assert.Equal(t, []string{
		"MoriKVManager.__init__: super().__init__ -> super pkg.common.conn.CommonKVManager.__init__",
		"MoriKVManager.__init__: super -> external super",
		"MoriKVManager.__init__: self._register_local -> method pkg.mori.conn.MoriKVManager._register_local",
		"MoriKVManager.__init__: threading.Thread -> external threading.Thread",
		"MoriKVManager.worker.inner: self.update_status -> method pkg.common.conn.CommonKVManager.update_status",
		"MoriKVManager.worker: self.send_kv -> method pkg.mori.conn.MoriKVManager.send_kv",
		"MoriKVManager.worker: MoriRegisterInfo -> ctor ",
		"MoriKVManager.worker: self.fail -> method pkg.mori.conn.MoriKVManager.fail",
		"MoriKVManager.worker: inner -> function pkg.mori.conn.MoriKVManager.worker.inner",
		// No __init__ in the project; the external base may define one.
		"MoriKVManager.send_kv: KVTransferError -> ctor Exception",
		"MoriKVManager.send_kv: prepare -> function pkg.mori.conn.prepare",
		"MoriKVManager.fail: self.reset_args -> method pkg.mori.conn.MoriKVManager.reset_args",
		"MoriKVManager.reset_args: self.kv_args.reset -> typed pkg.base.conn.KVArgs.reset",
		"MoriSender.send: self.kv_mgr.send_kv -> typed pkg.mori.conn.MoriKVManager.send_kv",
		"MoriSender.send: MoriKVManager -> ctor pkg.mori.conn.MoriKVManager.__init__",
		"MoriSender.send: m.hook -> typed pkg.mori.conn.MoriKVManager.hook",
		"MoriSender.send: MoriKVManager.fail -> static pkg.mori.conn.MoriKVManager.fail",
		"MoriSender.send: pkg.base.conn.KVArgs -> ctor ",
		// Unresolved calls (self.descs.clear, self.table.get, KVArgs().reset) have no callee.
	}, got)
	// Virtual dispatch: the base class's self.hook() may reach the override.
	assert.Contains(t, callLines(ix, "pkg.common.conn"),
		"CommonKVManager.run: self.hook -> method pkg.mori.conn.MoriKVManager.hook virtual")
	assert.Contains(t, callLines(ix, "pkg.common.conn"),
		"CommonKVManager.run: self.hook -> method pkg.common.conn.CommonKVManager.hook")

	var entries []string
	for _, e := range ix.Entries() {
		entries = append(entries, fmt.Sprintf("%d %s self=%s", e.Kind, ix.FuncName(e.Func), ix.ClassName(e.Self)))
	}
	assert.Equal(t, []string{"1 pkg.mori.conn.MoriKVManager.worker self=pkg.mori.conn.MoriKVManager"}, entries)
}

func TestMethodsNamed(t *testing.T) {
	ix := project(t, map[string]string{
		"a.py": `
class A:
    def finalize(self): self.ready = True
    @staticmethod
    def helper(): pass
    @property
    def size(self): return 1
def finalize(): pass
`,
		"b.py": `
class B:
    def finalize(self): pass
    def other(self): pass
`,
	})
	names := func(refs []FuncRef) []string {
		var out []string
		for _, r := range refs {
			out = append(out, ix.FuncName(r))
		}
		return out
	}
	// Instance methods only: not the module function, the static method or
	// the property.
	assert.Equal(t, []string{"a.A.finalize", "b.B.finalize"}, names(ix.MethodsNamed("finalize")))
	assert.Empty(t, ix.MethodsNamed("helper"))
	assert.Empty(t, ix.MethodsNamed("size"))
	assert.Empty(t, ix.MethodsNamed("missing"))
}

func TestSelfOf(t *testing.T) {
	ix := project(t, map[string]string{"m.py": `
class C:
    def m(this):
        def inner():
            return this.x
        return inner
    @staticmethod
    def s(x): pass
def f(self): pass
`})
	c := mustClass(t, ix, "m.C")
	name, cls := ix.SelfOf(mustFunc(t, ix, "m.C.m"))
	assert.Equal(t, "this", name)
	assert.Equal(t, c, cls)
	name, cls = ix.SelfOf(mustFunc(t, ix, "m.C.m.inner"))
	assert.Equal(t, "this", name, "a closure shares its method's self")
	assert.Equal(t, c, cls)
	for _, q := range []string{"m.C.s", "m.f"} {
		name, cls = ix.SelfOf(mustFunc(t, ix, q))
		assert.Equal(t, "", name, q)
		assert.Equal(t, NoClass, cls, q)
	}
	name, cls = ix.SelfOf(NoFunc)
	assert.Equal(t, "", name)
	assert.Equal(t, NoClass, cls)
}

// CallAt finds each call by its node, nested calls and calls in nested
// functions included (a summary lists calls in node order), and nothing
// for a node that is not a call.
func TestCallAt(t *testing.T) {
	ix := project(t, map[string]string{"m.py": "def f(x):\n    g(h(x), k(1))\n    def inner():\n        return x.m(y())\n    return f(inner())\n"})
	fi, ok := ix.ModuleFile("m")
	require.True(t, ok)
	calls := ix.Summary(fi).Calls
	require.Len(t, calls, 7)
	for i := range calls {
		site, ok := ix.CallAt(fi, calls[i].At.Node)
		assert.True(t, ok)
		assert.Equal(t, CallSite{File: fi, Call: int32(i)}, site, calls[i].Callee())
	}
	_, ok = ix.CallAt(fi, calls[0].At.Node+1)
	assert.False(t, ok, "the callee's name is not a call")
}
