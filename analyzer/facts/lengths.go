package facts

import "github.com/sglint/sglint/analyzer/syntax"

// Arithmetic on a length: code sizes its work from a container's length
// (`layers = len(descs) // 2`, `n = len(descs) * step`) and then tests the
// result against zero (`if layers == 0: return`). Every such f has f(0) ==
// 0, so a non-zero result proves the container non-empty; the converse is
// not known (`len(x) // 2` is 0 for one element).

// zeroLenArg reports whether n computes a number from len(x) that is 0
// whenever x is empty: len(x) itself, a product with it, a quotient or a
// remainder of it (`/`, `//`, `%`), or int(...) of one; it returns x.
func zeroLenArg(t *syntax.Tree, n syntax.NodeID) (syntax.NodeID, bool) {
	n = t.Unparen(n)
	if n == syntax.NoNode {
		return syntax.NoNode, false
	}
	if x, ok := lenArg(t, n); ok {
		return x, true
	}
	switch t.Kind(n) {
	case syntax.BinaryOperator:
		op := t.Field(n, syntax.FOperator)
		if op == syntax.NoNode {
			return syntax.NoNode, false
		}
		switch t.Kind(op) {
		case syntax.OpStar:
			if x, ok := zeroLenArg(t, t.Field(n, syntax.FLeft)); ok {
				return x, true
			}
			return zeroLenArg(t, t.Field(n, syntax.FRight))
		case syntax.OpSlash, syntax.OpFloorDiv, syntax.OpPercent:
			return zeroLenArg(t, t.Field(n, syntax.FLeft))
		}
	case syntax.Call:
		if args, ok := builtinCall(t, n, "int"); ok && len(args) == 1 {
			return zeroLenArg(t, args[0])
		}
	}
	return syntax.NoNode, false
}

// intOutcome returns the predicate on a number l that `l op c` evaluated
// to val states, nil for operators that are not numeric comparisons.
func intOutcome(op syntax.Kind, c int64, val bool) func(l int64) bool {
	var cmp func(l int64) bool
	switch op {
	case syntax.OpEq:
		cmp = func(l int64) bool { return l == c }
	case syntax.OpNe, syntax.OpLtGt:
		cmp = func(l int64) bool { return l != c }
	case syntax.OpLt:
		cmp = func(l int64) bool { return l < c }
	case syntax.OpLe:
		cmp = func(l int64) bool { return l <= c }
	case syntax.OpGt:
		cmp = func(l int64) bool { return l > c }
	case syntax.OpGe:
		cmp = func(l int64) bool { return l >= c }
	default:
		return nil
	}
	return func(l int64) bool { return cmp(l) == val }
}

// zeroTest: `e op c` evaluated to val, where e is not len(x) itself (see
// lenFacts).
func (a *analysis) zeroTest(e syntax.NodeID, op syntax.Kind, c int64, val bool, dst []int32) []int32 {
	holds := intOutcome(op, c, val)
	if holds == nil {
		return dst
	}
	return a.zeroOutcome(e, holds, dst)
}

// zeroOutcome: number e satisfies holds. When that rules 0 out, a path e
// is not zero and an arithmetic e on a length (zeroLenArg) proves the
// container non-empty.
func (a *analysis) zeroOutcome(e syntax.NodeID, holds func(int64) bool, dst []int32) []int32 {
	if holds(0) {
		return dst
	}
	if x, ok := zeroLenArg(a.t, e); ok {
		return a.pathFact(x, Truthy, dst)
	}
	return a.pathFact(e, NonZero, dst)
}

// lenValue: `p = v` with v an arithmetic on len(x) learns that p is zero
// when x is empty; false when v is no such expression.
func (a *analysis) lenValue(p pathID, v syntax.NodeID) bool {
	x, ok := zeroLenArg(a.t, v)
	if !ok {
		return false
	}
	a.learn(ifact{kind: NotNone, path: p, key: noPath, other: noPath})
	if q, ok := a.paths.ofNode(a.t, x, false); ok && q != p && !a.paths.dependsOn(q, p) {
		a.learn(ifact{kind: LenOf, path: p, key: noPath, other: q})
	}
	return true
}
