package facts

import (
	"slices"

	"github.com/sglint/sglint/analyzer/syntax"
)

// Comprehensions are single nodes of the graph, but inside one the
// element is evaluated only after its clauses ran: `[d.kind for d in infos
// if d.kind is not None]` knows d.kind is not None at the element, and the
// loop variable shadows whatever was known about that name outside. Their
// clauses' effects are recorded apart from the items' and applied at query
// time, for nodes inside a comprehension.

type comp struct {
	node    syntax.NodeID
	clauses []compClause
}

type compClause struct {
	node       syntax.NodeID // a for_in_clause or an if_clause
	eff0, eff1 int32         // its effects: a.effs[eff0:eff1]
}

// collectComps records the clauses of every comprehension met while
// collecting items (and of those nested in them), after the items' effects
// so that item ranges stay contiguous.
func (a *analysis) collectComps() {
	t := a.t
	for len(a.pendingComps) > 0 {
		c := a.pendingComps[len(a.pendingComps)-1]
		a.pendingComps = a.pendingComps[:len(a.pendingComps)-1]
		x := comp{node: c}
		for cl := range t.NamedChildren(c) {
			start := int32(len(a.effs))
			switch t.Kind(cl) {
			case syntax.ForInClause:
				for l := range t.FieldAll(cl, syntax.FLeft) {
					a.bindTargets(l)
					a.loopKeys(l, t.Field(cl, syntax.FRight), c)
				}
			case syntax.IfClause:
				for _, f := range a.condFacts(t.NamedChild(cl, 0), true, nil) {
					a.effs = append(a.effs, effect{op: opGen, arg: f})
				}
			default:
				continue
			}
			x.clauses = append(x.clauses, compClause{cl, start, int32(len(a.effs))})
		}
		a.comps = append(a.comps, x)
		// Nested comprehensions (not inside lambdas).
		end := t.SubtreeEnd(c)
		for i := c + 1; i < end; i++ {
			switch t.Kind(i) {
			case syntax.ListComprehension, syntax.SetComprehension,
				syntax.DictionaryComprehension, syntax.GeneratorExpression:
				a.pendingComps = append(a.pendingComps, i)
				i = t.SubtreeEnd(i) - 1
			case syntax.Lambda:
				i = t.SubtreeEnd(i) - 1
			}
		}
	}
	slices.SortFunc(a.comps, func(x, y comp) int { return int(x.node - y.node) })
}

// refineInComps applies to state s (the state before item `site`) the
// clauses of the comprehensions between site and n that run before n.
func (a *analysis) refineInComps(s []uint64, n, site syntax.NodeID, sc *scratch) {
	if len(a.comps) == 0 || n == site {
		return
	}
	t := a.t
	// Comprehension ancestors of n below site, innermost first, with the
	// child of each that leads to n.
	type hop struct {
		c     *comp
		child syntax.NodeID
	}
	var path []hop
	for m := n; m != site && m != syntax.NoNode; {
		p := t.Parent(m)
		if p == syntax.NoNode {
			break
		}
		if i, ok := slices.BinarySearchFunc(a.comps, p, func(x comp, n syntax.NodeID) int { return int(x.node - n) }); ok {
			path = append(path, hop{&a.comps[i], m})
		}
		m = p
	}
	for i := len(path) - 1; i >= 0; i-- {
		h := path[i]
		for _, cl := range h.c.clauses {
			if cl.node == h.child {
				// n is inside this clause: only the earlier ones ran (the
				// first clause's iterable runs before the comprehension).
				break
			}
			for _, e := range a.effs[cl.eff0:cl.eff1] {
				if e.op == opGen {
					a.gen(s, e.arg, sc)
				} else {
					a.kill(s, e.arg, sc)
				}
			}
		}
	}
}
