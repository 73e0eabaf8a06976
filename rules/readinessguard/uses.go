package readinessguard

import (
	"strings"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/syntax"
)

// useKind is how a send path uses registration state.
type useKind uint8

const (
	useIndex  useKind = iota + 1 // x[i]
	useSlice                     // x[a:b]
	useIter                      // for ... in x, comprehensions, enumerate/zip/reversed/sorted(x)
	useUnpack                    // a, b = x
	useDiv                       // n / len(x): divides by the length
	useHalve                     // len(x) // k: a length divided down, zero when empty
	useReturn                    // return x (the caller then indexes or loops over it)
)

// use is one use of registration state in a function.
type use struct {
	Node      syntax.NodeID // the expression naming the state (or its alias)
	Path      facts.Path    // as written there
	StatePath facts.Path    // self.<attr> in the function's names
	State     state
	Owner     facts.Path // the object holding the state: self, or `self.kv_mgr`
	Kind      useKind
	// Named is the name a divided length is bound to (`layers = len(x) //
	// 2`): where it is read is where the zero does harm (see halve.go).
	Named string
}

// iterCalls wrap an iterable without changing what a loop over it does.
var iterCalls = map[string]bool{"enumerate": true, "zip": true, "reversed": true, "sorted": true}

// useContext classifies how expression n is used, 0 when it is not one of
// the uses the rule is about.
func useContext(t *syntax.Tree, n syntax.NodeID) useKind {
	up := t.ParenTop(n)
	p := t.Parent(up)
	if p == syntax.NoNode {
		return 0
	}
	switch t.Kind(p) {
	case syntax.Subscript:
		if t.FieldOf(up) != syntax.FValue {
			return 0
		}
		for k := range t.FieldAll(p, syntax.FSubscript) {
			if t.Kind(k) == syntax.Slice {
				return useSlice
			}
		}
		return useIndex
	case syntax.ForStatement, syntax.ForInClause:
		if t.FieldOf(up) == syntax.FRight {
			return useIter
		}
	case syntax.Assignment:
		if t.FieldOf(up) == syntax.FRight {
			switch t.Kind(t.Field(p, syntax.FLeft)) {
			case syntax.PatternList, syntax.TuplePattern, syntax.ListPattern:
				return useUnpack
			}
		}
	case syntax.ReturnStatement:
		return useReturn
	case syntax.ExpressionList:
		if t.Kind(t.Parent(p)) == syntax.ReturnStatement {
			return useReturn
		}
	case syntax.ArgumentList:
		call := t.Parent(p)
		if t.Kind(call) != syntax.Call {
			return 0
		}
		fn := t.Field(call, syntax.FFunction)
		if t.Kind(fn) != syntax.Identifier {
			return 0
		}
		name := t.Text(fn)
		switch {
		case iterCalls[name] && useContext(t, call) == useIter:
			return useIter
		case name == "len":
			return divides(t, call)
		}
	}
	return 0
}

// lenCall is the len(...) call whose argument is n.
func lenCall(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	return t.Parent(t.Parent(t.ParenTop(n)))
}

// divides: useDiv when call is the right operand of /, // or %, useHalve
// when it is the left one.
func divides(t *syntax.Tree, call syntax.NodeID) useKind {
	up := t.ParenTop(call)
	b := t.Parent(up)
	if b == syntax.NoNode || t.Kind(b) != syntax.BinaryOperator {
		return 0
	}
	switch t.Kind(t.Field(b, syntax.FOperator)) {
	case syntax.OpSlash, syntax.OpFloorDiv, syntax.OpPercent:
		if t.FieldOf(up) == syntax.FRight {
			return useDiv
		}
		return useHalve
	}
	return 0
}

// stateLookup says which registration state an attribute path under self
// names, its own (`self.kv_mem_descs`) or that of an object it holds in a
// typed attribute (`self.kv_mgr.kv_mem_descs`), and the path of the object
// holding it (`self`, `self.kv_mgr`).
type stateLookup func(p facts.Path) (st state, owner facts.Path, ok bool)

// findUses lists, in source order, the uses of registration state in the
// function whose definition is def: through a path to it or a local alias
// of it (the facts say which names alias it where).
func findUses(t *syntax.Tree, def syntax.NodeID, r *facts.Result, self string, states stateLookup) []use {
	if self == "" {
		return nil
	}
	var out []use
	for n := range t.OwnScope(def) {
		if kind := t.Kind(n); kind != syntax.Identifier && kind != syntax.Attribute {
			continue
		}
		k := useContext(t, n)
		if k == 0 {
			continue
		}
		p, ok := facts.PathOf(t, n)
		if !ok {
			continue
		}
		sp, st, owner, ok := stateBehind(p, n, r, states)
		if !ok || (k == useReturn || k == useDiv || k == useHalve) && st.Kind == noneYet ||
			st.Kind == fromArgs && !raisesWhenEmpty(t, n, k) {
			continue
		}
		named := ""
		if k == useHalve {
			top := arithmeticTop(t, lenCall(t, n))
			if zeroTested(t, top) {
				continue // `if len(x) // k == 0:` is a check
			}
			named = namedBy(t, top)
		}
		out = append(out, use{Node: n, Path: p, StatePath: sp, State: st, Owner: owner, Kind: k, Named: named})
	}
	return out
}

// stateBehind: the registration state path p names at n, directly
// (`self.descs`) or as an alias holding there (`local = self.descs`, or a
// property that returns it).
func stateBehind(p facts.Path, n syntax.NodeID, r *facts.Result, states stateLookup) (facts.Path, state, facts.Path, bool) {
	if st, owner, ok := states(p); ok {
		return p, st, owner, true
	}
	if r == nil {
		return "", state{}, "", false
	}
	for _, f := range r.At(n) {
		if f.Kind != facts.Alias {
			continue
		}
		other := f.Other
		if f.Path != p {
			if f.Other != p {
				continue
			}
			other = f.Path
		}
		if st, owner, ok := states(other); ok {
			return other, st, owner, true
		}
	}
	return "", state{}, "", false
}

// selfAttr: p is `<self>.<attr>` with a single attribute.
func selfAttr(p facts.Path, self string) (string, bool) {
	rest, ok := strings.CutPrefix(string(p), self+".")
	if !ok || rest == "" || strings.ContainsAny(rest, ".[") {
		return "", false
	}
	return rest, true
}

// guarded reports whether a check that the state is usable holds at the
// use on every path: non-empty (which implies not None) for the path used,
// the state, or a member of its equivalence group; for None-initialised
// state, not None is enough.
func guarded(r *facts.Result, u use, group []facts.Path) bool {
	cands := append([]facts.Path{u.Path, u.StatePath}, group...)
	for _, c := range cands {
		if r.Holds(u.Node, facts.NonEmptyFact(c)) {
			return true
		}
		if u.State.Kind == noneYet && r.Holds(u.Node, facts.NotNoneFact(c)) {
			return true
		}
	}
	return false
}
