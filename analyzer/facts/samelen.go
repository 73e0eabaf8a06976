package facts

import "github.com/sglint/sglint/analyzer/syntax"

// Lengths compared with each other: a prefill side's source indices and a
// decode side's destination indices must be as long (`if len(src) !=
// len(dst): raise`), and a caller that cuts one to the other's length
// (`src = src[:len(dst)]`, or returns when they differ) makes a callee's
// mismatch raise unreachable. SameLen and DiffLen relate two paths,
// written in sorted order so that one pair has one fact.

// lenPair learns len(x) == len(y) (same) or != from nodes x and y.
func (a *analysis) lenPair(x, y syntax.NodeID, same bool, dst []int32) []int32 {
	p, ok := a.paths.ofNode(a.t, x, false)
	if !ok {
		return dst
	}
	q, ok := a.paths.ofNode(a.t, y, false)
	if !ok || p == q {
		return dst
	}
	k := DiffLen
	if same {
		k = SameLen
	}
	return a.appendFact(dst, a.lenFact(k, p, q))
}

// lenFact is the fact of kind k on p and q, in sorted order.
func (a *analysis) lenFact(k Kind, p, q pathID) ifact {
	if a.paths.str(q) < a.paths.str(p) {
		p, q = q, p
	}
	return ifact{kind: k, path: p, key: noPath, other: q}
}

// cutValue: `p = x[:len(q)]` (or `x[0:len(q)]`) makes p as long as q,
// as the code means it to (a longer q is a bug of its own).
func (a *analysis) cutValue(p pathID, v syntax.NodeID) bool {
	t := a.t
	if t.Kind(v) != syntax.Subscript {
		return false
	}
	sl := t.Field(v, syntax.FSubscript)
	if sl == syntax.NoNode || t.Kind(sl) != syntax.Slice {
		return false
	}
	start, stop, step := t.SliceParts(sl)
	if step != syntax.NoNode || start != syntax.NoNode && !t.TextIs(start, "0") || stop == syntax.NoNode {
		return false
	}
	y, ok := lenArg(t, stop)
	if !ok {
		return false
	}
	q, ok := a.paths.ofNode(t, y, false)
	if !ok || q == p || a.paths.dependsOn(q, p) {
		return false
	}
	a.learn(a.lenFact(SameLen, p, q))
	return true
}
