package facts

import (
	"slices"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Result holds the facts of one graph. It is immutable and safe for
// concurrent queries.
type Result struct {
	a *analysis
}

// Graph is the graph the facts were computed on.
func (r *Result) Graph() *cfg.Graph { return r.a.g }

// ReturnFacts is what holds when a call of the function returns a truthy
// value (or a falsy one), in its own names: for each way it returns, what
// holds there with what the returned expression says when it has that
// truth (`return k in self.t`, `return True` after a check, a lock or a
// log call around the test), intersected; returns whose value is a
// constant of the other truth do not count, nor does running off the end
// (None) for truthy. Facts about a name the function rebinds (a local, a
// parameter given another value) are left out: the caller would read them
// about its argument. ok is false for a graph that is not a function or
// lambda whose call returns its value (a generator, an async def), and for
// one that never returns.
func (r *Result) ReturnFacts(truthy bool) (fs []Fact, ok bool) {
	a := r.a
	if !a.predOK {
		return nil, false
	}
	a.predOnce.Do(a.computeReturnFacts)
	if truthy {
		return a.predOut[1], true
	}
	return a.predOut[0], true
}

// At returns the facts that hold on every path before n is evaluated (for
// a node inside a larger block node, before that node). It is nil when n
// is not evaluated by the graph or cannot be reached (see Reachable).
func (r *Result) At(n syntax.NodeID) []Fact {
	s, ok := r.stateAt(n)
	if !ok {
		return nil
	}
	s = r.a.withLocal(s, n, r.a.g.Locate(n)[0].Node)
	if s == nil {
		return nil
	}
	return r.a.export(s)
}

// Holds reports whether f holds on every path before n is evaluated. On
// code that cannot be reached it holds vacuously (true): rules stay silent
// in dead code. For a node the graph does not evaluate it is false.
func (r *Result) Holds(n syntax.NodeID, f Fact) bool {
	sites := r.a.g.Locate(n)
	if len(sites) == 0 {
		return false
	}
	id, known := r.a.lookup(f)
	s, reachable := r.stateAt(n)
	if !reachable {
		return true
	}
	if !known {
		return false
	}
	s = r.a.withLocal(s, n, sites[0].Node)
	return s != nil && has(s, id)
}

// withLocal adds to state s (nil: nothing known) the local facts (see
// localGuards) of n and its ancestors up to top, the node the graph
// evaluates, with what the rules derive from them. s is not modified.
func (a *analysis) withLocal(s []uint64, n, top syntax.NodeID) []uint64 {
	if len(a.local) == 0 {
		return s
	}
	var sc *scratch
	for m := n; m != syntax.NoNode; m = a.t.Parent(m) {
		for _, id := range a.local[m] {
			if sc == nil {
				sc = &scratch{}
				if s == nil {
					s = make([]uint64, a.w)
				} else {
					s = slices.Clone(s)
				}
			}
			a.gen(s, id, sc)
		}
		if m == top {
			break
		}
	}
	return s
}

// HoldsOnEdge reports whether f holds on every path just after control
// leaves block b along its i-th successor edge (g.Succs(b)[i]): after the
// block's nodes (before any of them may fail, for an Exception edge) and
// with what the edge's condition teaches. At a join, At gives the
// intersection of the incoming edges; this tells them apart, e.g. for a
// may-analysis that drops a binding on the edge where it was checked. On
// an edge out of an unreachable block it holds vacuously (true); for an
// edge that does not exist it is false.
func (r *Result) HoldsOnEdge(b cfg.BlockID, i int, f Fact) bool {
	s, exists, reachable := r.a.edgeState(b, i)
	if !exists {
		return false
	}
	if !reachable {
		return true
	}
	id, known := r.a.lookup(f)
	return known && s != nil && has(s, id)
}

// OnEdge returns the facts that hold on block b's i-th successor edge (see
// HoldsOnEdge); nil for an edge that does not exist or cannot be taken.
func (r *Result) OnEdge(b cfg.BlockID, i int) []Fact {
	s, _, _ := r.a.edgeState(b, i)
	if s == nil {
		return nil
	}
	return r.a.export(s)
}

// edgeState computes the state on an edge the way the solver does; nil
// when nothing is known there.
func (a *analysis) edgeState(b cfg.BlockID, i int) (s []uint64, exists, reachable bool) {
	if b < 0 || int(b) >= len(a.g.Blocks) {
		return nil, false, false
	}
	succs := a.g.Succs(b)
	if i < 0 || i >= len(succs) {
		return nil, false, false
	}
	if !a.g.Reachable(b) {
		return nil, true, false
	}
	if len(a.facts) == 0 {
		return nil, true, true
	}
	sc := &scratch{}
	state := slices.Clone(a.inState(b))
	exc := slices.Clone(state)
	e := succs[i]
	for k := a.blockItem[b]; k < a.blockItem[b+1]; k++ {
		if e.Kind == cfg.Exception && k > a.blockItem[b] {
			and(exc, state)
		}
		a.applyItem(state, k, sc)
	}
	out := state
	if e.Kind == cfg.Exception {
		out = exc
	}
	ei := int(a.edgeBase[b]) + i
	for _, g := range a.genFacts[a.edgeGen[ei]:a.edgeGen[ei+1]] {
		a.gen(out, g, sc)
	}
	return out, true, true
}

// Reachable reports whether n is evaluated on some path from the entry.
func (r *Result) Reachable(n syntax.NodeID) bool {
	for _, s := range r.a.g.Locate(n) {
		if r.a.g.Reachable(s.Block) {
			return true
		}
	}
	return false
}

// AtExit returns the facts that hold whenever the function returns
// normally (nil if it never does; see ExitReachable): what a caller knows
// after the call, once paths are translated to its names.
func (r *Result) AtExit() []Fact {
	a := r.a
	if !a.g.Reachable(cfg.Return) || len(a.facts) == 0 {
		return nil
	}
	return a.export(a.inState(cfg.Return))
}

// ExitReachable reports whether the function can return normally.
func (r *Result) ExitReachable() bool { return r.a.g.Reachable(cfg.Return) }

// stateAt is the intersection of the states at n's reachable sites; nil
// with ok when nothing is known (no facts at all); ok is false when no site
// is reachable.
func (r *Result) stateAt(n syntax.NodeID) ([]uint64, bool) {
	a := r.a
	var acc []uint64
	reachable := false
	var sc *scratch
	for _, s := range a.g.Locate(n) {
		if !a.g.Reachable(s.Block) {
			continue
		}
		reachable = true
		if len(a.facts) == 0 {
			continue
		}
		if sc == nil {
			sc = &scratch{}
		}
		st := make([]uint64, a.w)
		copy(st, a.inState(s.Block))
		first := a.blockItem[s.Block]
		for k := first; k < first+s.Index; k++ {
			a.applyItem(st, k, sc)
		}
		a.refineInComps(st, n, s.Node, sc)
		if acc == nil {
			acc = st
		} else {
			and(acc, st)
		}
	}
	return acc, reachable
}

// lookup finds a public fact in the universe without adding to it.
func (a *analysis) lookup(f Fact) (int32, bool) {
	// The table is frozen after Analyze: parsing only looks paths up.
	path := func(p Path, key bool) (pathID, bool) {
		if p == "" {
			return noPath, true
		}
		id, rest, ok := a.paths.parse(string(p), key)
		return id, ok && rest == ""
	}
	var x ifact
	var ok bool
	x.kind = f.Kind
	if x.path, ok = path(f.Path, false); !ok || x.path == noPath {
		return -1, false
	}
	if x.key, ok = path(f.Key, true); !ok {
		return -1, false
	}
	switch f.Kind {
	case IsInstance, NotInstance:
		x.other, ok = a.paths.find(pathKey{base: noPath, key: noPath, name: string(f.Other), lit: true})
		if f.Other == "" {
			x.other, ok = noPath, true
		}
	default:
		x.other, ok = path(f.Other, false)
	}
	if !ok {
		return -1, false
	}
	id, ok := a.factIdx[x]
	return id, ok
}

func (a *analysis) export(s []uint64) []Fact {
	var out []Fact
	str := func(p pathID) Path {
		if p == noPath {
			return ""
		}
		return Path(a.paths.str(p))
	}
	for i, f := range a.facts {
		if has(s, int32(i)) {
			out = append(out, Fact{Kind: f.kind, Path: str(f.path), Key: str(f.key), Other: str(f.other)})
		}
	}
	return out
}
