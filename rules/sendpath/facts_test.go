package sendpath

import (
	"testing"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const factsSrc = `
class Manager(BaseKVManager):
    def __init__(self, engine):
        self.descs = []
        self.engine = engine

    def send_checked(self, req):
        if not self.descs:
            return
        if req.room is None:
            return
        self._emit(req)

    def send_other_checked(self, req):
        if len(self.descs) == 0:
            raise RuntimeError("empty")
        if req.room is None:
            return
        self._emit(req)

    def send_partly(self, req):
        if not self.descs:
            return
        self._head(req)

    def send_unchecked(self, req):
        self._head(req)

    def _emit(self, job):
        return self.descs[0], job.room

    def _head(self, job):
        return self.descs[0]

    def _require(self):
        if not self.descs:
            raise RuntimeError("KV memory descriptors are empty")

    def send_via_require(self, req):
        self._require()
        return self.descs[0]

    def _reset(self):
        self.descs = []

    def send_after_reset(self, req):
        if not self.descs:
            return
        self._reset()
        return self._head(req)

class Sender(BaseKVSender):
    def __init__(self, mgr: Manager):
        self.kv_mgr = mgr

    def send(self, req):
        if not self.kv_mgr.descs:
            return
        self.kv_mgr.add_transfer_request(req)

class Manager2(Manager):
    def add_transfer_request(self, req):
        return self._emit2(req, self.descs)

    def _emit2(self, req, local):
        return local[0]

    def send_loop(self, n):
        if not self.descs:
            return
        return self._rec(n)

    def _rec(self, n):
        if n:
            self.descs.clear()
            return self._rec(n - 1)
        return self.descs[0]
`

func factsProject(t *testing.T) (*Paths, func(string) pymodel.FuncRef) {
	proj := load(t, map[string]string{"pkg/m.py": factsSrc})
	p := OfProject(proj, Config{})
	return p, func(q string) pymodel.FuncRef {
		r, ok := p.Index().FuncByName("pkg.m." + q)
		require.True(t, ok, q)
		return r
	}
}

func TestEntryFactsFromDominatingChecks(t *testing.T) {
	p, fn := factsProject(t)
	nonEmpty := facts.NonEmptyFact("self.descs")
	// Both callers check (one by truth, one by len and a raise): the facts
	// meet, translated from req to job.
	ef := p.EntryFacts(fn("Manager._emit"))
	assert.Contains(t, ef, nonEmpty)
	assert.Contains(t, ef, facts.NotNoneFact("job.room"))
	// One caller checks, the other does not: nothing holds.
	assert.NotContains(t, p.EntryFacts(fn("Manager._head")), nonEmpty)
	// Outermost entries start with nothing known.
	assert.Empty(t, p.EntryFacts(fn("Manager.send_checked")))

	// The facts of the function include them.
	f := p.Facts(fn("Manager._emit"))
	require.NotNil(t, f)
	assert.Contains(t, f.AtExit(), nonEmpty)
	assert.Nil(t, p.Facts(fn("Manager.__init__")), "not on a send path")
}

func TestPostFactsAndKills(t *testing.T) {
	p, fn := factsProject(t)
	nonEmpty := facts.NonEmptyFact("self.descs")
	assert.Contains(t, p.PostFacts(fn("Manager._require")), nonEmpty,
		"a helper that raises when the state is empty guarantees it on return")
	r := p.Facts(fn("Manager.send_via_require"))
	require.NotNil(t, r)
	assert.Contains(t, r.AtExit(), nonEmpty, "post facts hold after the call")

	// _reset empties the list: the check before it dies at the call.
	assert.NotContains(t, p.Facts(fn("Manager.send_after_reset")).AtExit(), nonEmpty)
}

func TestEntryFactsRecursion(t *testing.T) {
	p, fn := factsProject(t)
	// The recursive call is made after clear(): on that path the list may
	// be empty, so nothing holds on entry.
	assert.NotContains(t, p.EntryFacts(fn("Manager2._rec")), facts.NonEmptyFact("self.descs"))
	assert.NotContains(t, p.PostFacts(fn("Manager2._rec")), facts.NonEmptyFact("self.descs"))
}

const typedSrc = `
class Manager(BaseKVManager):
    def __init__(self):
        self.descs = []

    def add_transfer_request(self, req):
        return self._emit(req, self.descs, *req.extra)

    def _emit(self, req, local, *rest):
        return local[0]

class Sender(BaseKVSender):
    def __init__(self, mgr: Manager):
        self.kv_mgr = mgr

    def send(self, req):
        if not self.kv_mgr.descs or req.room not in self.kv_mgr.table:
            return
        self.kv_mgr.add_transfer_request(req)
`

func TestEntryFactsThroughTypedReceiverAndArguments(t *testing.T) {
	proj := load(t, map[string]string{"pkg/m.py": typedSrc})
	fn := func(p *Paths, q string) pymodel.FuncRef {
		r, ok := p.Index().FuncByName("pkg.m." + q)
		require.True(t, ok, q)
		return r
	}
	// By default Sender.send is a scheduler call, which leaves the request
	// entry outermost; the entry is still judged under the checks its only
	// caller makes.
	p := OfProject(proj, Config{})
	e, ok := p.EntryOf(fn(p, "Manager.add_transfer_request"))
	require.True(t, ok)
	assert.True(t, e.Outermost)
	assert.Subset(t, p.EntryFacts(e.Func), []facts.Fact{facts.NotNoneFact("self.descs"), facts.NonEmptyFact("self.descs"),
		facts.InFact("self.table", "req.room")},
		"what the constructor established, and what every caller checked")

	// Configured as an entry, Sender.send reaches the request entry through
	// a typed receiver: self.kv_mgr.descs becomes self.descs, and the key
	// req.room follows req.
	p = OfProject(proj, Config{Entries: []string{"Sender.send"}})
	e, _ = p.EntryOf(fn(p, "Manager.add_transfer_request"))
	assert.False(t, e.Outermost)
	ef := p.EntryFacts(e.Func)
	assert.Contains(t, ef, facts.NonEmptyFact("self.descs"))
	assert.Contains(t, ef, facts.InFact("self.table", "req.room"))
	// An argument that is an access path binds its parameter.
	ef = p.EntryFacts(fn(p, "Manager._emit"))
	assert.Contains(t, ef, facts.NonEmptyFact("local"))
	assert.Contains(t, ef, facts.NonEmptyFact("self.descs"))
	assert.Contains(t, ef, facts.InFact("self.table", "req.room"))
	for _, f := range ef {
		assert.NotEqual(t, "rest", f.Path.Root(), "splats bind nothing")
	}
}
