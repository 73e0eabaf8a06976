package facts

import (
	"sync"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Options are the hooks through which interprocedural knowledge enters.
type Options struct {
	// EntryFacts hold when the function starts, e.g. checks that dominate
	// every call site in the callers, translated into this function's
	// names.
	EntryFacts []Fact
	// CallEffects returns facts that hold after call returns normally,
	// e.g. `self.descs non-empty` after a helper that raises when it is
	// empty. Called for each call node the graph evaluates (more than once
	// for calls in finally bodies, which are copied per path).
	CallEffects func(call syntax.NodeID) []Fact
	// CallKills returns paths that call may rebind (killing their facts),
	// e.g. from a summary of the callee's assignments to self attributes.
	CallKills func(call syntax.NodeID) []Path
	// CallTests returns facts that hold when call, tested as a condition,
	// is truthy (or falsy): those of a predicate method it calls, `def
	// has(self, k): return k in self.t`, in the caller's names (see
	// Result.ReturnFacts).
	CallTests func(call syntax.NodeID, truthy bool) []Fact
	// KeyCovers returns, for a table path, the tables that hold every key
	// it holds (an invariant of the class: each key added to one is added
	// to the others, which never lose a key), so that `k in table` implies
	// `k in` each of them. nil: none.
	KeyCovers func(table Path) []Path
	// WaitCalls names the functions (last name part) whose lambda argument
	// is a condition that holds once they return: `wait_for(lambda: k in
	// t)`. nil means DefaultWaitCalls; an empty slice disables them.
	WaitCalls []string
}

// DefaultWaitCalls are the wait helpers recognised when Options.WaitCalls
// is nil.
var DefaultWaitCalls = []string{"wait_for", "wait_until"}

// maxFacts bounds the facts one analysis tracks; facts past it are never
// known, which is sound for a must-analysis (rules see less, not wrong).
const maxFacts = 4096

// ifact is a Fact with interned paths (noPath for unused fields).
type ifact struct {
	kind             Kind
	path, key, other pathID
}

// rule: when facts p1 and p2 (if >= 0) hold, c holds.
type rule struct{ p1, p2, c int32 }

// killInfo: the facts a rebind or mutation of one path kills, and the
// kills it implies through aliases holding at that point.
type killInfo struct {
	facts []int32
	props []prop
}

type prop struct{ alias, info int32 }

type analysis struct {
	t     *syntax.Tree
	g     *cfg.Graph
	opts  Options
	waits []string

	paths   pathTable
	facts   []ifact
	factIdx map[ifact]int32

	effs      []effect
	itemEff   []int32 // effects of global item k: effs[itemEff[k]:itemEff[k+1]]
	blockItem []int32 // global index of each block's first item
	edgeBase  []int32 // global index of each block's first successor edge
	edgeGen   []int32 // facts learnt on edge i: genFacts[edgeGen[i]:edgeGen[i+1]]
	genFacts  []int32
	entry     []int32
	// local holds, for nodes inside comprehensions (which the graph does
	// not split), the facts their short-circuit context guarantees while
	// they are evaluated (see localGuards).
	local map[syntax.NodeID][]int32

	rules    []rule
	gens     []uint8 // mirror generation of each fact (0 if not a mirror)
	ruleOff  []int32 // rules with premise f: ruleIdx[ruleOff[f]:ruleOff[f+1]]
	ruleIdx  []int32
	inv      [][]int32 // path -> facts that depend on it
	mutInv   [][]int32 // path -> facts a mutation of it kills
	aliasOn  [][]int32 // path -> alias facts on it
	kills    []killInfo
	killMemo []int32   // 3*path+op -> kill info, -1 until computed
	keysOn   [][]int32 // path -> KeysOf facts about its elements (while deriving)

	w       int
	in      []uint64 // in-state of each block, w words each
	reached []bool

	// A function's returns (see predicate.go): for a lambda the facts of
	// its body being truthy (predTrue) and falsy (predFals); for a def one
	// entry per way it returns. predOK says ReturnFacts can be asked.
	predOK   bool
	predTrue []int32
	predFals []int32
	rets     []predReturn
	// predOut caches ReturnFacts (falsy, truthy): asked once per call of
	// the predicate in every caller's analysis.
	predOnce sync.Once
	predOut  [2][]Fact
	subst    map[string]syntax.NodeID // while collecting them: the predicate's locals

	cands []syntax.NodeID // scratch for itemEffects
	loads []syntax.NodeID // scratch for itemEffects: subscripts read
	ends  []syntax.NodeID

	pendingComps []syntax.NodeID // comprehensions met while collecting
	comps        []comp          // sorted by node (see comp.go)
}

// Analyze computes the facts of graph g (built from tree t).
func Analyze(t *syntax.Tree, g *cfg.Graph, opts Options) *Result {
	a := &analysis{t: t, g: g, opts: opts}
	waits := opts.WaitCalls
	if waits == nil {
		waits = DefaultWaitCalls
	}
	for _, w := range waits {
		a.waits = append(a.waits, pyname.Last(w))
	}
	a.collect()
	if len(a.facts) > 0 {
		a.derive()
		a.prepareKills()
		a.solve()
	}
	a.paths.frozen = true // queries must not write (Results are shared)
	return &Result{a: a}
}

// fact interns f into the universe; -1 once the universe is full.
func (a *analysis) fact(f ifact) int32 {
	if id, ok := a.factIdx[f]; ok {
		return id
	}
	if len(a.facts) >= maxFacts {
		return -1
	}
	if a.factIdx == nil {
		a.factIdx = make(map[ifact]int32, 16)
	}
	id := int32(len(a.facts))
	a.facts = append(a.facts, f)
	a.factIdx[f] = id
	return id
}

// appendFact appends f's id to dst unless the universe is full.
func (a *analysis) appendFact(dst []int32, f ifact) []int32 {
	if id := a.fact(f); id >= 0 {
		dst = append(dst, id)
	}
	return dst
}

// intern converts a public fact (from Options) into the universe.
func (a *analysis) intern(f Fact) (int32, bool) {
	p, ok := a.paths.ofString(f.Path)
	if !ok {
		return -1, false
	}
	x := ifact{kind: f.Kind, path: p, key: noPath, other: noPath}
	switch f.Kind {
	case IsNone, NotNone, Truthy, Falsy, NonZero:
	case LenOf, KeysOf, SameLen, DiffLen:
		if x.other, ok = a.paths.ofString(f.Other); !ok {
			return -1, false
		}
	case In, NotIn, GetOf:
		k, rest, ok := a.paths.parse(string(f.Key), true)
		if !ok || rest != "" {
			return -1, false
		}
		x.key = k
		if f.Kind == GetOf {
			if x.other, ok = a.paths.ofString(f.Other); !ok {
				return -1, false
			}
		}
	case IsInstance, NotInstance:
		x.other = a.paths.literal(string(f.Other))
	case Alias:
		if x.other, ok = a.paths.ofString(f.Other); !ok {
			return -1, false
		}
	default:
		return -1, false
	}
	id := a.fact(x)
	return id, id >= 0
}

// collect records every item's effects and every edge's learnt facts.
func (a *analysis) collect() {
	g := a.g
	nb := len(g.Blocks)
	nitems := 0
	for b := range g.Blocks {
		nitems += len(g.Blocks[b].Nodes)
	}
	nedges := len(g.Edges())
	// One arena for the four index arrays.
	arena := make([]int32, 2*(nb+1)+nitems+1+nedges+1)
	a.blockItem, arena = arena[:nb+1:nb+1], arena[nb+1:]
	a.edgeBase, arena = arena[:nb+1:nb+1], arena[nb+1:]
	a.itemEff, arena = arena[:nitems+1:nitems+1], arena[nitems+1:]
	a.edgeGen = arena[: nedges+1 : nedges+1]
	for b := range g.Blocks {
		a.blockItem[b+1] = a.blockItem[b] + int32(len(g.Blocks[b].Nodes))
		a.edgeBase[b+1] = a.edgeBase[b] + int32(len(g.Succs(cfg.BlockID(b))))
	}
	a.effs = make([]effect, 0, nitems+4)
	k := 0
	for b := range g.Blocks {
		reachable := g.Reachable(cfg.BlockID(b)) // unreachable code learns nothing
		for _, n := range g.Blocks[b].Nodes {
			a.itemEff[k] = int32(len(a.effs))
			if reachable {
				a.itemEffects(n)
			}
			k++
		}
		for j, e := range g.Succs(cfg.BlockID(b)) {
			a.edgeGen[int(a.edgeBase[b])+j] = int32(len(a.genFacts))
			if reachable && e.Cond != syntax.NoNode {
				switch {
				case isCondExpr(a.t, e.Cond):
					a.genFacts = a.condFacts(e.Cond, e.Value, a.genFacts)
				case a.t.Kind(e.Cond) == syntax.CaseClause:
					a.genFacts = a.caseFacts(e.Cond, e.Value, a.genFacts)
				}
			}
		}
	}
	a.itemEff[k] = int32(len(a.effs))
	a.edgeGen[a.edgeBase[nb]] = int32(len(a.genFacts))
	a.collectComps()
	a.collectPredicate()
	for _, f := range a.opts.EntryFacts {
		if id, ok := a.intern(f); ok {
			a.entry = append(a.entry, id)
		}
	}
}

// isCondExpr: edge conditions that are expressions (not loop, case or
// except outcomes).
func isCondExpr(t *syntax.Tree, n syntax.NodeID) bool {
	switch t.Kind(n) {
	case syntax.ForStatement, syntax.CaseClause, syntax.ExceptClause, syntax.ExceptGroupClause:
		return false
	}
	return true
}
