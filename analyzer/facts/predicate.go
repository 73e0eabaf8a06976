package facts

import (
	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Predicates: a call tested as a condition (`if not self._has(k): return`)
// tells the caller what its callee's returns say (Options.CallTests,
// Result.ReturnFacts). Every way a function returns counts: its state there
// (a check before `return True`, calls that do not kill facts, a lock held
// around the test) and the facts of the returned expression having the
// truth asked about.

// predReturn is one way a function returns: along the edge-th successor of
// block, into the Return exit, with what its value gives when falsy and
// when truthy, or a value of known truth.
type predReturn struct {
	block cfg.BlockID
	edge  int
	when  [2][]int32 // falsy, truthy
	konst int8       // -1 unknown, 0 always falsy, 1 always truthy
}

// collectPredicate records the returns of the graph's function (before the
// universe of facts is frozen), or a lambda's body.
func (a *analysis) collectPredicate() {
	t := a.t
	root := a.g.Root
	switch t.Kind(root) {
	case syntax.Lambda:
		body := t.Field(root, syntax.FBody)
		a.predOK = true
		a.predTrue = a.condFacts(body, true, nil)
		a.predFals = a.condFacts(body, false, nil)
		return
	case syntax.FunctionDefinition:
	default:
		return
	}
	yields, finally := ownScopeHasYieldFinally(t, root)
	if isAsync(t, root) || yields {
		return // its call returns a coroutine or a generator: always truthy
	}
	// One expression returned after plain local assignments: the locals are
	// read as the expressions they were given (`missing = k not in t;
	// return not missing`).
	expr, subst := predicateExpr(t, root)
	for _, e := range a.g.Preds(cfg.Return) {
		if !a.g.Reachable(e.From) {
			continue
		}
		pr := predReturn{block: e.From, edge: -1, konst: -1}
		for j, s := range a.g.Succs(e.From) {
			if s == e {
				pr.edge = j
				break
			}
		}
		if pr.edge < 0 {
			continue
		}
		nodes := a.g.Blocks[e.From].Nodes
		ret := syntax.NoNode
		if len(nodes) > 0 && t.Kind(nodes[len(nodes)-1]) == syntax.ReturnStatement {
			ret = nodes[len(nodes)-1]
		}
		switch {
		case ret != syntax.NoNode:
			v := returnValue(t, ret)
			if k, ok := constTruth(t, v); ok {
				pr.konst = k
				break
			}
			if v == expr {
				a.subst = subst
			}
			pr.when[1] = a.condFacts(v, true, nil)
			pr.when[0] = a.condFacts(v, false, nil)
			a.subst = nil
		case !finally:
			pr.konst = 0 // ran off the end: None
		}
		// Otherwise a finally body ran last: the value is not known here.
		a.rets = append(a.rets, pr)
	}
	a.predOK = len(a.rets) > 0
}

// computeReturnFacts fills predOut once the analysis is solved.
func (a *analysis) computeReturnFacts() {
	sc := &scratch{}
	if a.t.Kind(a.g.Root) == syntax.Lambda {
		for i, ids := range [2][]int32{a.predFals, a.predTrue} {
			if len(ids) == 0 {
				continue
			}
			s := make([]uint64, a.w)
			for _, id := range ids {
				a.gen(s, id, sc)
			}
			a.predOut[i] = a.export(s)
		}
		return
	}
	rebound := a.reboundNames()
	for i := range 2 {
		truthy := i == 1
		var acc []uint64
		for _, pr := range a.rets {
			if pr.konst >= 0 && (pr.konst == 1) != truthy {
				continue // cannot return that truth this way
			}
			s, _, reachable := a.edgeState(pr.block, pr.edge)
			if !reachable {
				continue
			}
			if s == nil {
				s = make([]uint64, a.w)
			}
			for _, id := range pr.when[i] {
				a.gen(s, id, sc)
			}
			if acc == nil {
				acc = s
			} else {
				and(acc, s)
			}
		}
		if acc == nil {
			continue
		}
		for _, f := range a.export(acc) {
			if !mentionsAny(f, rebound) {
				a.predOut[i] = append(a.predOut[i], f)
			}
		}
	}
}

// reboundNames are the names the function binds (locals, parameters given
// another value, loop targets): a fact about one at a return is not about
// what the caller passed.
func (a *analysis) reboundNames() map[string]bool {
	out := map[string]bool{}
	for _, e := range a.effs {
		if e.op != opRebind {
			continue
		}
		if x := a.paths.e[e.path]; x.base == noPath && !x.lit {
			out[x.name] = true
		}
	}
	return out
}

func mentionsAny(f Fact, names map[string]bool) bool {
	for _, p := range [3]Path{f.Path, f.Key, f.Other} {
		if p != "" && !p.IsLiteral() && names[p.Root()] {
			return true
		}
	}
	return false
}

// returnValue is the expression a return statement returns (NoNode for a
// bare return).
func returnValue(t *syntax.Tree, ret syntax.NodeID) syntax.NodeID {
	for x := range t.NamedChildren(ret) {
		if t.Kind(x) != syntax.Comment {
			return x
		}
	}
	return syntax.NoNode
}

// constTruth is the truth of a returned constant: a bare return or None,
// True/False, a number, a string or an empty or non-empty display.
func constTruth(t *syntax.Tree, v syntax.NodeID) (int8, bool) {
	if v == syntax.NoNode {
		return 0, true
	}
	v = t.Unparen(v)
	switch t.Kind(v) {
	case syntax.None, syntax.False:
		return 0, true
	case syntax.True:
		return 1, true
	case syntax.Integer:
		if n, ok := intLit(t, v); ok {
			if n == 0 {
				return 0, true
			}
			return 1, true
		}
	case syntax.List, syntax.Dictionary, syntax.Set, syntax.Tuple, syntax.String:
		if empty, known := literalEmpty(t, v); known {
			if empty {
				return 0, true
			}
			return 1, true
		}
	}
	return -1, false
}

// isAsync: `async def`.
func isAsync(t *syntax.Tree, def syntax.NodeID) bool {
	for c := range t.Children(def) {
		return t.Kind(c) == syntax.KwAsync
	}
	return false
}

// ownScopeHasYieldFinally reports a yield, and a finally clause, in def's
// body outside nested functions, lambdas and classes (one walk for both).
func ownScopeHasYieldFinally(t *syntax.Tree, def syntax.NodeID) (yields, finally bool) {
	for n := range t.OwnScope(def) {
		switch t.Kind(n) {
		case syntax.Yield:
			yields = true
		case syntax.FinallyClause:
			finally = true
		}
	}
	return yields, finally
}

// predicateExpr is the one expression function def returns, with the
// locals assigned before it, or NoNode when it does anything else.
func predicateExpr(t *syntax.Tree, def syntax.NodeID) (syntax.NodeID, map[string]syntax.NodeID) {
	body := t.Field(def, syntax.FBody)
	if body == syntax.NoNode {
		return syntax.NoNode, nil
	}
	var stmts []syntax.NodeID
	for s := range t.NamedChildren(body) {
		if t.Kind(s) != syntax.Comment {
			stmts = append(stmts, s)
		}
	}
	if len(stmts) > 1 && isDocstring(t, stmts[0]) {
		stmts = stmts[1:]
	}
	if len(stmts) == 0 || t.Kind(stmts[len(stmts)-1]) != syntax.ReturnStatement {
		return syntax.NoNode, nil
	}
	var subst map[string]syntax.NodeID
	for _, s := range stmts[:len(stmts)-1] {
		name, value, ok := localAssignment(t, s)
		if !ok {
			return syntax.NoNode, nil
		}
		if _, again := subst[name]; again {
			return syntax.NoNode, nil
		}
		if subst == nil {
			subst = map[string]syntax.NodeID{}
		}
		subst[name] = value
	}
	for x := range t.NamedChildren(stmts[len(stmts)-1]) {
		if t.Kind(x) != syntax.Comment {
			return x, subst
		}
	}
	return syntax.NoNode, nil
}

// localAssignment reads `name = value` (or `name: T = value`) as a whole
// statement.
func localAssignment(t *syntax.Tree, s syntax.NodeID) (string, syntax.NodeID, bool) {
	if t.Kind(s) != syntax.ExpressionStatement {
		return "", syntax.NoNode, false
	}
	e := t.NamedChild(s, 0)
	if e == syntax.NoNode || t.Kind(e) != syntax.Assignment {
		return "", syntax.NoNode, false
	}
	left, right := t.Field(e, syntax.FLeft), t.Field(e, syntax.FRight)
	if left == syntax.NoNode || right == syntax.NoNode || t.Kind(left) != syntax.Identifier ||
		t.Kind(t.Unparen(right)) == syntax.Assignment || !sideEffectFree(t, right) {
		return "", syntax.NoNode, false
	}
	return string(t.Bytes(left)), right, true
}

// sideEffectFree: n calls nothing but len, isinstance and bool, so what a
// local was given still holds when the predicate returns.
func sideEffectFree(t *syntax.Tree, n syntax.NodeID) bool {
	for i := n; i < t.SubtreeEnd(n); i++ {
		if t.Kind(i) != syntax.Call {
			continue
		}
		switch string(t.Bytes(t.Field(i, syntax.FFunction))) {
		case "len", "isinstance", "bool":
		default:
			return false
		}
	}
	return true
}

func isDocstring(t *syntax.Tree, s syntax.NodeID) bool {
	if t.Kind(s) != syntax.ExpressionStatement {
		return false
	}
	for x := range t.NamedChildren(s) {
		return t.Kind(x) == syntax.String || t.Kind(x) == syntax.ConcatenatedString
	}
	return false
}
