package pymodel

import (
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

// flowProject is project() keeping the trees, with a Flow over them.
func flowProject(t testing.TB, files map[string]string) (*Index, *Flow) {
	t.Helper()
	ix, _, trees := indexWithTrees(t, files)
	return ix, NewFlow(ix, func(fi int32) *syntax.Tree { return trees[fi] }, nil)
}

// indexWithTrees indexes files, sorted by path, and returns their paths
// and trees by file number.
func indexWithTrees(t testing.TB, files map[string]string) (*Index, []string, []*syntax.Tree) {
	t.Helper()
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var srcs []SourceFile
	var trees []*syntax.Tree
	for _, p := range paths {
		tree := syntaxtest.Parse(t, files[p])
		mod, pkg := ModuleName("", p)
		srcs = append(srcs, SourceFile{Path: p, Module: mod, Package: pkg, Summary: Summarize(tree)})
		trees = append(trees, tree)
	}
	return NewIndex(srcs), paths, trees
}

// guardLines renders the use guards of fn for reads of the given ops.
func guardLines(ix *Index, gs []UseGuard) []string {
	var out []string
	for _, g := range gs {
		u := ix.Use(g.Use)
		if u.Op == ReadPlain || u.Op == ReadMethod {
			continue
		}
		out = append(out, fmt.Sprintf("L%d %s %s nonempty=%v notnone=%v", u.At.Line, g.Path, u.Op, g.NonEmpty, g.NotNone))
	}
	return out
}

var flowSrc = map[string]string{
	"m.py": `
class Mgr:
    def __init__(self, ptrs):
        self.descs = []
        self.peer = None

    def _check(self):
        if not self.descs:
            raise RuntimeError("KV memory descriptors are empty")

    def _reset(self):
        self.descs = []

    def _fill(self):
        self.descs.append(1)

    def send_checked(self):
        self._check()
        use(self.descs[0])

    def send_unchecked(self):
        use(self.descs[0])

    def send_reset_after_check(self):
        self._check()
        self._reset()
        use(self.descs[0])

    def send_fill_after_check(self):
        self._check()
        self._fill()
        use(self.descs[0])

    def send_via_param(self):
        require_nonempty(self.descs)
        use(self.descs[-1])

    def send_checked_in_one_branch(self, x):
        if x:
            self._check()
        use(self.descs[0])


def require_nonempty(d):
    if not d:
        raise ValueError("empty")


class Sender:
    def __init__(self, mgr: Mgr):
        self.mgr = mgr

    def send(self):
        self.mgr._check()
        use(self.mgr.descs[0])
`,
}

func TestFlowPostFacts(t *testing.T) {
	ix, fl := flowProject(t, flowSrc)
	check := mustFunc(t, ix, "m.Mgr._check")
	assert.Equal(t, []facts.Fact{{Kind: facts.NotNone, Path: "self.descs"}, {Kind: facts.Truthy, Path: "self.descs"}}, fl.Post(check))
	assert.Equal(t, []facts.Fact{{Kind: facts.NotNone, Path: "d"}, {Kind: facts.Truthy, Path: "d"}},
		fl.Post(mustFunc(t, ix, "m.require_nonempty")))

	tests := []struct {
		fn   string
		want []string
	}{
		{"m.Mgr.send_checked", []string{"L19 self.descs index nonempty=true notnone=true"}},
		{"m.Mgr.send_unchecked", []string{"L22 self.descs index nonempty=false notnone=false"}},
		// _reset rebinds self.descs (a kill) to [] (its post-facts: not None, empty).
		{"m.Mgr.send_reset_after_check", []string{"L27 self.descs index nonempty=false notnone=true"}},
		{"m.Mgr.send_fill_after_check", []string{"L32 self.descs index nonempty=true notnone=true"}},
		{"m.Mgr.send_via_param", []string{"L36 self.descs index nonempty=true notnone=true"}},
		{"m.Mgr.send_checked_in_one_branch", []string{"L41 self.descs index nonempty=false notnone=false"}},
		// A typed receiver: the callee's self.descs is the caller's self.mgr.descs.
		{"m.Sender.send", []string{"L55 self.mgr.descs index nonempty=true notnone=true"}},
	}
	for _, tc := range tests {
		fn := mustFunc(t, ix, tc.fn)
		assert.Equal(t, tc.want, guardLines(ix, fl.UseGuards(fn, fl.Facts(fn))), tc.fn)
	}
	reset := mustFunc(t, ix, "m.Mgr.send_reset_after_check")
	res := fl.Facts(reset)
	var use syntax.NodeID = -1
	for _, g := range fl.UseGuards(reset, res) {
		use = ix.Use(g.Use).At.Node
	}
	assert.True(t, res.Holds(use, facts.Fact{Kind: facts.Falsy, Path: "self.descs"}), "known empty after _reset")
}

var entrySrc = map[string]string{
	"e.py": `
class Mgr:
    def send_kv(self, req):
        if not self.descs:
            return
        self._send_mla(req)

    def send_state(self, req):
        self._send_mla(req)

    def worker(self, req):
        if req.kind is None:
            raise ValueError("no kind")
        if self.descs:
            self._send_mla(req)
            self._with_kind(req)

    def _send_mla(self, req):
        for d in self.descs:
            pass
        use(self.descs[0], req.kind)

    def _with_kind(self, info):
        use(info.kind[0])
`,
}

func TestFlowEntryFacts(t *testing.T) {
	ix, fl := flowProject(t, entrySrc)
	mla := mustFunc(t, ix, "e.Mgr._send_mla")
	start := func(names ...string) []Start {
		var out []Start
		for _, n := range names {
			out = append(out, Start{Func: mustFunc(t, ix, n), Self: NoClass})
		}
		return out
	}
	// Only the guarded caller reaches the helper: its check holds on entry.
	g := fl.Guards(ix.Reachable(start("e.Mgr.send_kv"), ReachOptions{}))
	assert.Contains(t, g.Entry(mla), facts.NonEmptyFact("self.descs"))
	assert.Equal(t, []string{
		"L19 self.descs iter nonempty=true notnone=true",
		"L21 self.descs index nonempty=true notnone=true",
	}, guardLines(ix, fl.UseGuards(mla, g.Result(mla))))

	// A second, unguarded caller: the intersection is empty.
	g = fl.Guards(ix.Reachable(start("e.Mgr.send_kv", "e.Mgr.send_state"), ReachOptions{}))
	assert.NotContains(t, g.Entry(mla), facts.NonEmptyFact("self.descs"))
	assert.Equal(t, []string{
		"L19 self.descs iter nonempty=false notnone=false",
		"L21 self.descs index nonempty=false notnone=false",
	}, guardLines(ix, fl.UseGuards(mla, g.Result(mla))))

	// Arguments translate to parameters: req.kind -> info.kind.
	g = fl.Guards(ix.Reachable(start("e.Mgr.worker"), ReachOptions{}))
	assert.Contains(t, g.Entry(mla), facts.NotNoneFact("req.kind"))
	assert.Contains(t, g.Entry(mustFunc(t, ix, "e.Mgr._with_kind")), facts.NotNoneFact("info.kind"))
	assert.Contains(t, g.Entry(mla), facts.NonEmptyFact("self.descs"))
}

func TestFlowChecks(t *testing.T) {
	ix, fl := flowProject(t, map[string]string{"c.py": `
class C:
    def f(self, x, req):
        if not self.descs:
            raise RuntimeError("KV memory descriptors are empty")
        if req.kind is None:
            return
        assert x in self.table, "unknown"
        for r in x:
            if r is None:
                continue
            use(r)
        d = self.items
        if not d:
            raise ValueError("alias")
        done()
        if self.last:
            raise ValueError("not a guard: last statement")
`})
	f := mustFunc(t, ix, "c.C.f")
	var got []string
	for _, c := range fl.Checks(f, fl.Facts(f)) {
		line := fmt.Sprintf("%s:", c.How)
		for _, x := range c.Facts {
			line += " " + x.String()
		}
		if c.Raise >= 0 {
			line += fmt.Sprintf(" [%s %q]", ix.Summary(f.File).Raises[c.Raise].Type, ix.Summary(f.File).Raises[c.Raise].Message)
		}
		got = append(got, line)
	}
	assert.Equal(t, []string{
		`raise: self.descs is not None self.descs non-empty [RuntimeError "KV memory descriptors are empty"]`,
		"return: req.kind is not None",
		"assert: self.table is not None self.table non-empty x in self.table",
		"continue: r is not None",
		// Through the alias d = self.items.
		`raise: d is not None self.items is not None d non-empty self.items non-empty [ValueError "alias"]`,
	}, got)
}

func TestFlowCyclesAndConcurrency(t *testing.T) {
	ix, fl := flowProject(t, map[string]string{"r.py": `
class R:
    def a(self, n):
        if not self.q:
            raise ValueError()
        if n:
            self.b(n - 1)
        use(self.q[0])

    def b(self, n):
        self.a(n)
        use(self.q[0])

    def c(self):
        self.c()
`})
	a, b := mustFunc(t, ix, "r.R.a"), mustFunc(t, ix, "r.R.b")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			fn := a
			if i%2 == 1 {
				fn = b
			}
			require.NotNil(t, fl.Facts(fn))
		}(i)
	}
	wg.Wait()
	assert.Contains(t, fl.Post(a), facts.NonEmptyFact("self.q"))
	assert.Contains(t, fl.Post(b), facts.NonEmptyFact("self.q"), "through the cycle")
	assert.Equal(t, []string{"L12 self.q index nonempty=true notnone=true"}, guardLines(ix, fl.UseGuards(b, fl.Facts(b))))
	assert.Nil(t, fl.Post(mustFunc(t, ix, "r.R.c")), "never returns")
}

// BenchmarkStdlibFlowAll computes the facts of every function of the
// corpus with their callees' post-facts: the worst case (rules only ask
// for functions on the paths they check). It reports the cost as a
// fraction of the parse ("flow/parse").
func BenchmarkStdlibFlowAll(b *testing.B) {
	files, root := stdlibCorpus(b)
	p := syntax.NewParser()
	defer p.Close()
	trees := make([]*syntax.Tree, len(files))
	srcs := make([]SourceFile, len(files))
	var parse time.Duration
	for i, f := range files {
		t0 := time.Now()
		tree, err := p.Parse(f.src)
		if err != nil {
			b.Fatal(err)
		}
		parse += time.Since(t0)
		trees[i] = tree
		mod, pkg := ModuleName(root, f.path)
		srcs[i] = SourceFile{Path: f.path, Module: mod, Package: pkg, Summary: Summarize(tree)}
	}
	ix := NewIndex(srcs)
	var flow time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		fl := NewFlow(ix, func(fi int32) *syntax.Tree { return trees[fi] }, nil)
		for fi := range ix.Files {
			for _, fn := range ix.FuncsOf(int32(fi)) {
				fl.Facts(fn)
			}
		}
		flow += time.Since(t0)
		n++
	}
	b.ReportMetric(float64(flow)/float64(n)/float64(parse), "flow/parse")
}

// Membership facts translate their keys too: a key that is a parameter in
// the callee is the argument in the caller, and back.
func TestFlowKeys(t *testing.T) {
	ix, fl := flowProject(t, map[string]string{"k.py": `
class T:
    def require_peer(self, name):
        if name not in self.table:
            raise KeyError(name)

    def send(self, req):
        self.require_peer(req.room)
        use(self.table[req.room])

    def worker(self, req):
        if req.room not in self.table:
            return
        self._send_one(req)

    def _send_one(self, r):
        use(self.table[r.room])

    def unrelated(self, req, other):
        self.require_peer(other)
        use(self.table[req.room])
`})
	assert.Contains(t, fl.Post(mustFunc(t, ix, "k.T.require_peer")), facts.InFact("self.table", "name"))
	send := mustFunc(t, ix, "k.T.send")
	var n syntax.NodeID = -1
	for _, g := range fl.UseGuards(send, fl.Facts(send)) {
		if ix.Use(g.Use).Op == ReadIndex {
			n = ix.Use(g.Use).At.Node
		}
	}
	assert.True(t, fl.Facts(send).Holds(n, facts.InFact("self.table", "req.room")), "post-fact with the key translated")

	un := mustFunc(t, ix, "k.T.unrelated")
	for _, g := range fl.UseGuards(un, fl.Facts(un)) {
		if ix.Use(g.Use).Op == ReadIndex {
			n = ix.Use(g.Use).At.Node
		}
	}
	assert.False(t, fl.Facts(un).Holds(n, facts.InFact("self.table", "req.room")), "another key")
	assert.True(t, fl.Facts(un).Holds(n, facts.InFact("self.table", "other")))

	g := fl.Guards(ix.Reachable([]Start{{Func: mustFunc(t, ix, "k.T.worker"), Self: NoClass}}, ReachOptions{}))
	assert.Contains(t, g.Entry(mustFunc(t, ix, "k.T._send_one")), facts.InFact("self.table", "r.room"),
		"entry fact: req -> r")
}

func TestFlowTranslateThroughEveryBinding(t *testing.T) {
	ix, fl := flowProject(t, map[string]string{"t.py": `
class Mgr:
    def __init__(self):
        self.descs = []

    def send(self, req):
        if not self.descs or req.room not in self.table:
            return
        self._emit(req, self.descs)

    def _emit(self, req, local):
        return local[0], self.descs[0]
`})
	send, emit := mustFunc(t, ix, "t.Mgr.send"), mustFunc(t, ix, "t.Mgr._emit")
	g := fl.Guards(ix.Reachable([]Start{{Func: send, Self: NoClass}}, ReachOptions{}))
	// self.descs reaches the callee both as itself (through the receiver)
	// and as the parameter it is passed to.
	ef := g.Entry(emit)
	assert.Contains(t, ef, facts.NonEmptyFact("self.descs"))
	assert.Contains(t, ef, facts.NonEmptyFact("local"))
	assert.Contains(t, ef, facts.InFact("self.table", "req.room"))

	// The exported translations, both ways, at the call site.
	var site CallSite
	var cal Callee
	for _, s := range ix.CallsIn(send) {
		for _, c := range ix.Callees(s) {
			if c.Func == emit {
				site, cal = s, c
			}
		}
	}
	require.True(t, cal.Func.Valid())
	assert.Equal(t, []facts.Fact{facts.NonEmptyFact("self.descs")},
		fl.ToCaller(site, cal, []facts.Fact{facts.NonEmptyFact("local"), facts.NonEmptyFact("other")}),
		"a parameter's fact is the argument's; unbound names are dropped")
	assert.Equal(t, []facts.Fact{facts.NonEmptyFact("local"), facts.NonEmptyFact("self.descs")},
		fl.ToCallee(site, cal, []facts.Fact{facts.NonEmptyFact("self.descs")}))
	assert.Nil(t, fl.ToCallee(site, Callee{Func: NoFunc}, []facts.Fact{facts.NonEmptyFact("self.descs")}))
}

// A membership key no binding reaches goes to the one argument that is a
// field of the same name (sameFieldKey): only membership, only toward a
// callee, never through a subscript, and not when two arguments qualify.
func TestSameFieldKeys(t *testing.T) {
	in := func(kind facts.Kind, key facts.Path) facts.Fact {
		return facts.Fact{Kind: kind, Path: "self.status", Key: key}
	}
	self := binding{callee: "self", caller: "self"}
	room := binding{callee: "room", caller: "info.room"}
	for _, tc := range []struct {
		name     string
		f        facts.Fact
		bs       []binding
		toCaller bool
		want     []facts.Fact
	}{
		{"same field", in(facts.In, "chunk.room"), []binding{self, room}, false,
			[]facts.Fact{in(facts.In, "room")}},
		{"a bound key wins", in(facts.In, "info.room"), []binding{self, room}, false,
			[]facts.Fact{in(facts.In, "room")}},
		{"a bound key wins over a field", in(facts.In, "info.room"),
			[]binding{self, {callee: "i", caller: "info"}, {callee: "r", caller: "other.room"}}, false,
			[]facts.Fact{in(facts.In, "i.room")}},
		{"another field", in(facts.In, "chunk.peer"), []binding{self, room}, false, nil},
		{"not membership", in(facts.NotIn, "chunk.room"), []binding{self, room}, false, nil},
		{"toward the caller", facts.Fact{Kind: facts.In, Path: "self.status", Key: "job.room"},
			[]binding{self, room}, true, nil},
		{"through a subscript", in(facts.In, "chunks[0].room"), []binding{self, room}, false, nil},
		{"a bare name", in(facts.In, "room"), []binding{self, {callee: "r", caller: "info.room"}}, false, nil},
		{"two candidates", in(facts.In, "chunk.room"),
			[]binding{self, room, {callee: "alt", caller: "other.room"}}, false, nil},
	} {
		got := translateFacts(nil, tc.f, tc.bs, tc.toCaller)
		assert.Equal(t, tc.want, got, tc.name)
	}
}
