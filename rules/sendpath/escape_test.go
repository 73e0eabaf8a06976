package sendpath

import (
	"fmt"
	"testing"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const escapeSrc = `
import threading

class Manager(BaseKVManager):
    def __init__(self, jobs):
        self.descs = []
        self.jobs = jobs
        threading.Thread(target=self._fatal, daemon=True).start()
        threading.Thread(target=self._scoped, daemon=True).start()

    def _split(self):
        if not self.descs:
            raise RuntimeError("empty")
        return self.descs[0]

    def send_kv(self):
        return self._split()

    def add_transfer_request(self, dummy):
        if dummy:
            return None
        return self.send_kv()

    def send_gated(self):
        if not self.descs:
            return None
        return self.send_kv()

    def _fatal(self):
        while True:
            self.jobs.get()
            try:
                self.send_kv()
            except Exception as e:
                raise RuntimeError(f"dead: {e}")

    def _scoped(self):
        while True:
            job = self.jobs.get()
            try:
                self.send_kv()
            except RuntimeError as e:
                job.fail(e)

class Sender(BaseKVSender):
    def __init__(self, mgr: Manager):
        self.mgr = mgr

    def send(self):
        try:
            self.mgr.add_transfer_request(False)
        except Exception:
            pass
`

func TestEscapes(t *testing.T) {
	proj := load(t, map[string]string{"pkg/m.py": escapeSrc})
	p := OfProject(proj, Config{})
	ix := p.Index()
	split, ok := ix.FuncByName("pkg.m.Manager._split")
	require.True(t, ok)
	var raise pymodel.Raise
	for _, r := range ix.Summary(split.File).Raises {
		if r.Func == split.Func {
			raise = r
		}
	}
	site := RaiseSite{Func: split, Node: raise.At.Node, Exc: "RuntimeError", Message: raise.Message,
		Excluded: []facts.Fact{facts.NonEmptyFact("self.descs")}}
	var got []string
	for _, e := range p.Escapes(site) {
		c := ix.Call(e.Call)
		got = append(got, fmt.Sprintf("%s:%d:%s:%v:%d", p.ShortName(e.Entry.Func), c.At.Line, c.Callee(), e.CallerHandles, len(e.Chain)))
	}
	assert.Equal(t, []string{
		"Manager._fatal:33:self.send_kv:false:3",
		"Manager.add_transfer_request:22:self.send_kv:true:3",
	}, got, "the gated entry and the request-scoped worker are silent; Sender.send catches")

	// The gated entry's check contradicts the raise's own branch: excluded
	// without being listed.
	site.Excluded = nil
	assert.Len(t, p.Escapes(site), 2)
	// A handler for another class does not catch.
	site.Exc = "KeyError"
	assert.Len(t, p.Escapes(site), 3)
}

const chainSrc = `
class M(BaseKVManager):
    def _raise(self):
        if not self.plan:
            raise RuntimeError("plan missing")

    def _reset_then_raise(self):
        self.plan = []
        self._raise()

    def send_checked_then_reset(self):
        if not self.plan:
            return
        self._reset_then_raise()

    def _mid(self, strict):
        if strict:
            if not self.plan:
                return
            self._raise()
        else:
            self._raise()

    def send_mid(self, strict):
        self._mid(strict)

    def send_mid_checked(self, strict):
        if not self.plan:
            return
        self._mid(strict)

    def _count(self):
        if self.n > 3:
            raise RuntimeError("too many")

    def send_count(self):
        if not self.ready:
            return
        self._count()

    def send_direct(self):
        if self.plan is None:
            raise RuntimeError("no plan")
`

// Facts are carried down each chain: a reset on the way undoes a check,
// every path from an entry call counts (not only the shortest), Excluded
// adds what the engine cannot relate, and a raise in the entry itself is
// reported on request.
func TestEscapesAlongChains(t *testing.T) {
	proj := load(t, map[string]string{"pkg/c.py": chainSrc})
	p := OfProject(proj, Config{})
	ix := p.Index()
	siteIn := func(q string) RaiseSite {
		fn, ok := ix.FuncByName("pkg.c.M." + q)
		require.True(t, ok, q)
		for _, r := range ix.Summary(fn.File).Raises {
			if r.Func == fn.Func {
				return RaiseSite{Func: fn, Node: r.At.Node, Exc: "RuntimeError", Message: r.Message}
			}
		}
		t.Fatalf("no raise in %s", q)
		return RaiseSite{}
	}
	entries := func(r RaiseSite) []string {
		var out []string
		for _, e := range p.Escapes(r) {
			line := 0
			if e.Call.File >= 0 {
				line = int(ix.Call(e.Call).At.Line)
			}
			out = append(out, fmt.Sprintf("%s:%d:%d", p.ShortName(e.Entry.Func), line, len(e.Chain)))
		}
		return out
	}
	assert.Equal(t, []string{"M.send_checked_then_reset:14:3", "M.send_mid:25:3"}, entries(siteIn("_raise")),
		"the reset kills the check; one path through _mid is unchecked; send_mid_checked checks first")

	count := siteIn("_count")
	assert.Equal(t, []string{"M.send_count:39:2"}, entries(count))
	count.Excluded = []facts.Fact{{Kind: facts.Truthy, Path: "self.ready"}}
	assert.Empty(t, entries(count), "an equivalent condition, listed")

	direct := siteIn("send_direct")
	assert.Empty(t, entries(direct), "a raise in the entry is not an escape through a call")
	direct.Direct = true
	assert.Equal(t, []string{"M.send_direct:0:1"}, entries(direct))
}

// A thread target handles a failure only inside its request loop: a
// handler around the whole loop runs after the loop is left, and the
// thread returns.
func TestHandledInThreads(t *testing.T) {
	proj := load(t, map[string]string{"pkg/w.py": `
import threading

class Worker(BaseKVManager):
    def __init__(self, jobs):
        self.jobs = jobs
        threading.Thread(target=self._per_request, daemon=True).start()
        threading.Thread(target=self._around_loop, daemon=True).start()

    def _step(self, job):
        raise RuntimeError("boom")

    def _per_request(self):
        while True:
            job = self.jobs.get()
            try:
                self._step(job)
            except RuntimeError:
                job.fail()

    def _around_loop(self):
        try:
            while True:
                self._step(self.jobs.get())
        except RuntimeError:
            pass

    def helper(self, job):
        try:
            self._step(job)
        except RuntimeError:
            return None
`})
	p := OfProject(proj, Config{})
	ix := p.Index()
	handled := map[string]bool{}
	for _, name := range []string{"_per_request", "_around_loop", "helper"} {
		fn, ok := ix.FuncByName("pkg.w.Worker." + name)
		require.True(t, ok)
		for _, site := range ix.CallsIn(fn) {
			if c := ix.Call(site); c.Name == "_step" {
				handled[name] = p.Handled(fn, c.At.Node, "RuntimeError")
			}
		}
	}
	assert.Equal(t, map[string]bool{"_per_request": true, "_around_loop": false, "helper": true}, handled,
		"only threads need the loop; any other function handles it where it catches it")

	step, ok := ix.FuncByName("pkg.w.Worker._step")
	require.True(t, ok)
	var raise pymodel.Raise
	for _, r := range ix.Summary(step.File).Raises {
		if r.Func == step.Func {
			raise = r
		}
	}
	var got []string
	for _, e := range p.Escapes(RaiseSite{Func: step, Node: raise.At.Node, Exc: "RuntimeError"}) {
		got = append(got, p.ShortName(e.Entry.Func))
	}
	assert.Equal(t, []string{"Worker._around_loop"}, got)
}
