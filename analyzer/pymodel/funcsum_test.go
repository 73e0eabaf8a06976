package pymodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func chainNames(ix *Index, steps []Step) []string {
	var out []string
	for _, s := range steps {
		line := ix.Func(s.Func).QualName
		if s.Site.File >= 0 {
			line = fmt.Sprintf("L%d:%s", ix.Call(s.Site).At.Line, line)
		}
		out = append(out, line)
	}
	return out
}

func TestReachable(t *testing.T) {
	ix := project(t, kvProject)
	e := ix.Entries()
	require.Len(t, e, 1)
	r := ix.Reachable([]Start{e[0].Start()}, ReachOptions{})
	var reached []string
	for _, f := range r.Funcs() {
		reached = append(reached, ix.FuncName(f))
	}
	assert.Equal(t, []string{
		"pkg.mori.conn.MoriKVManager.worker",
		"pkg.mori.conn.MoriKVManager.send_kv",
		"pkg.mori.conn.MoriKVManager.fail",
		"pkg.mori.conn.MoriKVManager.worker.inner",
		"pkg.mori.conn.prepare",
		"pkg.mori.conn.MoriKVManager.reset_args",
		"pkg.common.conn.CommonKVManager.update_status",
		"pkg.base.conn.KVArgs.reset",
	}, reached)
	assert.Equal(t, []string{"MoriKVManager.worker", "L30:MoriKVManager.send_kv", "L38:prepare"},
		chainNames(ix, r.Chain(mustFunc(t, ix, "pkg.mori.conn.prepare"))))
	assert.Nil(t, r.Chain(mustFunc(t, ix, "pkg.mori.conn.MoriKVManager.hook")))

	// Context: the base class's run() calls self.hook(); on a Mori instance
	// that is Mori's hook, on a plain CommonKVManager its own.
	run := mustFunc(t, ix, "pkg.common.conn.CommonKVManager.run")
	moriHook := mustFunc(t, ix, "pkg.mori.conn.MoriKVManager.hook")
	commonHook := mustFunc(t, ix, "pkg.common.conn.CommonKVManager.hook")
	mori := mustClass(t, ix, "pkg.mori.conn.MoriKVManager")
	r = ix.Reachable([]Start{{Func: run, Self: mori}}, ReachOptions{})
	assert.True(t, r.Reached(moriHook))
	assert.False(t, r.Reached(commonHook))
	r = ix.Reachable([]Start{{Func: run, Self: NoClass}}, ReachOptions{})
	assert.True(t, r.Reached(commonHook))
	assert.False(t, r.Reached(moriHook))
	r = ix.Reachable([]Start{{Func: run, Self: NoClass}}, ReachOptions{Virtual: true})
	assert.True(t, r.Reached(commonHook))
	assert.True(t, r.Reached(moriHook), "class hierarchy analysis: any subclass instance")
}

func TestReachableSuperAndLambda(t *testing.T) {
	ix := project(t, map[string]string{"m.py": `
class A:
    def step(self):
        self.leaf()
    def leaf(self):
        pass

class B(A):
    def step(self):
        super().step()
    def leaf(self):
        run(lambda: self.cb())
    def cb(self):
        pass

class C(B):
    def leaf(self):
        pass
`})
	bStep := mustFunc(t, ix, "m.B.step")
	r := ix.Reachable([]Start{{Func: bStep, Self: NoClass}}, ReachOptions{})
	var reached []string
	for _, f := range r.Funcs() {
		reached = append(reached, ix.FuncName(f))
	}
	// super().step() is A.step; in it self.leaf() on a B is B.leaf, whose
	// lambda calls cb.
	assert.Equal(t, []string{"m.B.step", "m.A.step", "m.B.leaf", "m.B.leaf.<lambda>", "m.B.cb"}, reached)
	r = ix.Reachable([]Start{{Func: bStep, Self: mustClass(t, ix, "m.C")}}, ReachOptions{})
	assert.True(t, r.Reached(mustFunc(t, ix, "m.C.leaf")))
	assert.False(t, r.Reached(mustFunc(t, ix, "m.B.leaf")))
}

func TestFuncSummaryWrites(t *testing.T) {
	ix := project(t, kvProject)
	sum := func(q string) *FuncSummary { return ix.FuncSummary(mustFunc(t, ix, q)) }
	assert.Equal(t, []string{"descs", "kv_args", "table"}, sum("pkg.mori.conn.MoriKVManager.__init__").SelfWrites,
		"own, through super().__init__ and through self._register_local")
	assert.Equal(t, []string{"descs"}, sum("pkg.mori.conn.MoriKVManager._register_local").SelfWrites)
	assert.Equal(t, [][]string{{"dst_kind", "segments"}}, sum("pkg.mori.conn.prepare").ParamWrites)
	assert.Equal(t, []string{"dst_kind", "segments"}, sum("pkg.mori.conn.MoriKVManager.send_kv").WritesOn(1),
		"through prepare(info)")
	assert.Equal(t, []string{"kv_args.kv_data_ptrs"}, sum("pkg.mori.conn.MoriKVManager.reset_args").SelfWrites,
		"a method called on self.kv_args writes on it")
	assert.Equal(t, []string{"kv_args.kv_data_ptrs", "table"}, sum("pkg.mori.conn.MoriKVManager.worker").SelfWrites,
		"through self.fail() and the closure inner()")
	assert.Equal(t, sum("pkg.mori.conn.MoriKVManager.worker").SelfWrites, sum("pkg.mori.conn.MoriKVManager.worker").WritesOn(0),
		"a method's self parameter is its self")

	// Kills: what may leave a path empty or None.
	assert.Empty(t, sum("pkg.mori.conn.MoriKVManager._register_local").SelfKills, "append cannot empty a list")
	assert.Equal(t, []string{"descs"}, sum("pkg.mori.conn.MoriKVManager.hook").SelfKills, "clear can")
	assert.Equal(t, []string{"descs", "kv_args", "table"}, sum("pkg.mori.conn.MoriKVManager.__init__").SelfKills,
		"assignments rebind")
	assert.Equal(t, []string{"dst_kind"}, sum("pkg.mori.conn.MoriKVManager.send_kv").KillsOn(1),
		"prepare rebinds info.dst_kind; segments.append does not empty")
}

var escapeProject = map[string]string{
	"errs.py": `
class TransferError(RuntimeError):
    pass
`,
	"m.py": `from errs import TransferError

def boom():
    raise TransferError("no KV registered")

def key():
    d = {}
    return d["k"]

def caught_exact():
    try:
        boom()
    except TransferError:
        return None

def caught_base():
    try:
        boom()
    except (ValueError, RuntimeError):
        pass

def caught_broad():
    try:
        boom()
    except Exception as e:
        log(e)

def reraised():
    try:
        boom()
    except TransferError:
        cleanup()
        raise

def reraised_by_name():
    try:
        boom()
    except TransferError as e:
        raise e

def translated():
    try:
        boom()
    except TransferError as e:
        raise ValueError("bad") from e

def wrong_handler():
    try:
        boom()
    except KeyError:
        pass

def handler_outside():
    try:
        pass
    except KeyError:
        boom()

def nested():
    try:
        try:
            boom()
        except KeyError:
            pass
    except RuntimeError:
        pass

def recursive(n):
    if n:
        return recursive(n - 1)
    raise KeyError(n)

def mutual_a(n):
    mutual_b(n)

def mutual_b(n):
    if n:
        mutual_a(n)
    raise IndexError("x")
`,
}

func TestFuncSummaryEscapes(t *testing.T) {
	ix := project(t, escapeProject)
	esc := func(q string) []string {
		var out []string
		for _, e := range ix.FuncSummary(mustFunc(t, ix, q)).Escapes {
			r := ix.Raise(e.Raise)
			out = append(out, fmt.Sprintf("%s %q", e.Type, r.Message))
		}
		return out
	}
	te := []string{`errs.TransferError "no KV registered"`}
	tests := []struct {
		fn   string
		want []string
	}{
		{"m.boom", te},
		{"m.caught_exact", nil},
		{"m.caught_base", nil},
		{"m.caught_broad", nil},
		{"m.reraised", te},
		{"m.reraised_by_name", te},
		{"m.translated", []string{`ValueError "bad"`}},
		{"m.wrong_handler", te},
		{"m.handler_outside", te},
		{"m.nested", nil},
		{"m.recursive", []string{`KeyError ""`}},
		{"m.mutual_a", []string{`IndexError "x"`}},
		{"m.mutual_b", []string{`IndexError "x"`}},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, esc(tc.fn), tc.fn)
	}
	assert.True(t, ix.FuncSummary(mustFunc(t, ix, "m.mutual_a")).Recursive)
	assert.False(t, ix.FuncSummary(mustFunc(t, ix, "m.boom")).Recursive)
	// A call site's handler, asked directly.
	f := mustFunc(t, ix, "m.caught_base")
	site := ix.CallsIn(f)[0]
	assert.True(t, ix.CaughtAt(site, "errs.TransferError"))
	assert.False(t, ix.CaughtAt(site, "KeyError"))
}

func TestMayReturnNone(t *testing.T) {
	ix := project(t, map[string]string{"m.py": `
def explicit(x):
    if x:
        return None
    return 1

def bare(x):
    if x:
        return
    return 1

def falls_off(x):
    if x:
        return 1

def cond(x):
    return x if x else None

def never(x):
    if x:
        return 1
    raise ValueError()

def via(x):
    return explicit(x)

def via_never(x):
    return never(x)

def gen():
    yield 1

def stub() -> int:
    ...

def lookup(d, k):
    return d.get(k)

class C:
    def m(self):
        return self.n()
    def n(self):
        log()
    def placeholder(self):
        pass
`})
	tests := map[string]bool{
		"m.explicit": true, "m.bare": true, "m.falls_off": true, "m.cond": true,
		"m.never": false, "m.via": true, "m.via_never": false, "m.gen": false, "m.stub": false,
		"m.lookup": false, // an external call: unknown, not assumed None (the rules look at .get themselves)
		"m.C.m":    true, "m.C.n": true,
		"m.C.placeholder": false, // a stub: overridden or not yet written, it says nothing
	}
	for q, want := range tests {
		assert.Equal(t, want, ix.FuncSummary(mustFunc(t, ix, q)).MayReturnNone, q)
	}
}

func TestBindArgs(t *testing.T) {
	ix := project(t, map[string]string{"m.py": `
def f(a, b, *args, c=1, **kw): pass
class K:
    def m(self, x, y=2): pass
    @classmethod
    def make(cls, z): pass
def g(k: K):
    f(1, 2, 3, c=4, d=5)
    k.m(1, y=2)
    K.m(k, 1)
    K.make(3)
    f(*xs)
`})
	g := mustFunc(t, ix, "m.g")
	var got []string
	for _, site := range ix.CallsIn(g) {
		cs := ix.Callees(site)
		require.Len(t, cs, 1)
		got = append(got, fmt.Sprint(ix.BindArgs(site, cs[0])))
	}
	assert.Equal(t, []string{"[0 1 2 3 4]", "[1 2]", "[0 1]", "[1]", "[-1]"}, got)
}

func TestEntries(t *testing.T) {
	ix := project(t, map[string]string{"s.py": `
import threading
from threading import Thread, Timer

def plain():
    pass

class S:
    def start(self, pool, loop):
        def spin():
            self.step()
        threading.Thread(target=spin).start()
        Thread(None, self.step).start()
        Thread(target=lambda: self.step(), daemon=True).start()
        Timer(1.0, plain).start()
        pool.submit(self.step, 1)
        loop.run_in_executor(None, plain)
        threading.Thread(target=self.missing).start()
        threading.Thread(target=getattr(self, "step")).start()

    def step(self):
        pass

class Base:
    def __init__(self):
        threading.Thread(target=self.loop).start()
        threading.Thread(target=self.tick).start()

    def tick(self):
        pass

class Worker(Base):
    def loop(self):
        pass

    def tick(self):
        pass

class Quiet(Base):
    pass
`})
	var got []string
	for _, e := range ix.Entries() {
		self := "-"
		if e.Self.Valid() {
			self = ix.ClassName(e.Self)
		}
		got = append(got, fmt.Sprintf("L%d %d %s self=%s", ix.Call(e.Site).At.Line, e.Kind, ix.Func(e.Func).QualName, self))
	}
	assert.Equal(t, []string{
		"L12 1 S.start.spin self=s.S",
		"L13 1 S.step self=s.S",
		"L14 1 S.start.<lambda> self=s.S",
		"L15 1 plain self=-",
		"L16 2 S.step self=s.S",
		"L17 2 plain self=-",
		// A hook only subclasses define, and an override of a base method:
		// each runs on instances of the class defining it.
		"L26 1 Worker.loop self=s.Worker",
		"L27 1 Base.tick self=s.Base",
		"L27 1 Worker.tick self=s.Worker",
	}, got)
}
