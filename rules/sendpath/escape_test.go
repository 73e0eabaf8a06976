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

class Manager:
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

class Sender:
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

	// Without the exclusion, the gated entry escapes too.
	site.Excluded = nil
	assert.Len(t, p.Escapes(site), 3)
	// A handler for another class does not catch.
	site.Exc = "KeyError"
	assert.Len(t, p.Escapes(site), 4)
}

// A thread target handles a failure only inside its request loop: a
// handler around the whole loop runs after the loop is left, and the
// thread returns.
func TestHandledInThreads(t *testing.T) {
	proj := load(t, map[string]string{"pkg/w.py": `
import threading

class Worker:
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
