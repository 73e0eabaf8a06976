package cfg

import (
	"sort"

	"github.com/sglint/sglint/analyzer/syntax"
)

// cond lowers the test n at the current point, branching to tr when it is
// true and to fa when it is false; `and`, `or`, `not`, parentheses and
// conditional expressions become branches, so every edge condition is
// atomic. Afterwards the current point is unreachable.
func (b *builder) cond(n syntax.NodeID, tr, fa BlockID) {
	t := b.t
	if n == syntax.NoNode || t.IsError(n) {
		b.reach(n)
		b.edge(b.cur, tr, Normal, syntax.NoNode, false)
		b.edge(b.cur, fa, Normal, syntax.NoNode, false)
		b.cur = NoBlock
		return
	}
	switch t.Kind(n) {
	case syntax.ParenthesizedExpression:
		if inner := t.NamedChild(n, 0); inner != syntax.NoNode && t.NamedChild(n, 1) == syntax.NoNode {
			b.mark(n)
			b.cond(inner, tr, fa)
			return
		}
	case syntax.NotOperator:
		if arg := t.Field(n, syntax.FArgument); arg != syntax.NoNode {
			b.mark(n)
			b.cond(arg, fa, tr)
			return
		}
	case syntax.BooleanOperator:
		left, right, op := t.Field(n, syntax.FLeft), t.Field(n, syntax.FRight), t.Field(n, syntax.FOperator)
		if left != syntax.NoNode && right != syntax.NoNode && op != syntax.NoNode {
			b.mark(n)
			mid := b.newBlock(KindCondNext, n)
			if t.Kind(op) == syntax.KwAnd {
				b.cond(left, mid, fa)
			} else {
				b.cond(left, tr, mid)
			}
			b.cur = mid
			b.cond(right, tr, fa)
			return
		}
	case syntax.ConditionalExpression:
		if a, c, e, ok := condExprParts(t, n); ok {
			b.mark(n)
			then, els := b.newBlock(KindCondThen, n), b.newBlock(KindCondElse, n)
			b.cond(c, then, els)
			b.cur = then
			b.cond(a, tr, fa)
			b.cur = els
			b.cond(e, tr, fa)
			return
		}
	}
	if v, ok := constTruth(t, n); ok {
		// A constant test has one edge: `while True:` leaves only by break.
		b.mark(n)
		to := fa
		if v {
			to = tr
		}
		b.edge(b.cur, to, Normal, n, v)
		b.cur = NoBlock
		return
	}
	b.expr(n)
	b.reach(n)
	b.edge(b.cur, tr, Normal, n, true)
	b.edge(b.cur, fa, Normal, n, false)
	b.cur = NoBlock
}

// constTruth reports literals whose truth is known: True, False, None, and
// the integers 0 and 1 (`while 1:`).
func constTruth(t *syntax.Tree, n syntax.NodeID) (bool, bool) {
	switch t.Kind(n) {
	case syntax.True:
		return true, true
	case syntax.False, syntax.None:
		return false, true
	case syntax.Integer:
		if t.TextIs(n, "1") {
			return true, true
		}
		if t.TextIs(n, "0") {
			return false, true
		}
	}
	return false, false
}

// condExprParts splits `a if c else e`.
func condExprParts(t *syntax.Tree, n syntax.NodeID) (a, c, e syntax.NodeID, ok bool) {
	a, c, e = t.NamedChild(n, 0), t.NamedChild(n, 1), t.NamedChild(n, 2)
	return a, c, e, a != syntax.NoNode && c != syntax.NoNode && e != syntax.NoNode
}

// expr lowers expression (or simple statement) n for its value. Without
// short-circuit operators inside it is one node of the current block;
// otherwise its short-circuiting parts become branches and n itself, if it
// does more than combine them, is added after them as a split node.
func (b *builder) expr(n syntax.NodeID) {
	t := b.t
	if n == syntax.NoNode || t.IsError(n) {
		return
	}
	top := !b.inSplit
	if top {
		// One scan of n's subtree records where short-circuits are; nested
		// calls answer from it by binary search, keeping lowering linear.
		b.splitAt = b.scanSplits(n, b.splitAt[:0])
		if len(b.splitAt) == 0 {
			b.add(n)
			return
		}
		b.inSplit = true
		defer func() { b.inSplit = false }()
	} else if !b.needsSplit(n) {
		b.add(n)
		return
	}
	switch t.Kind(n) {
	case syntax.BooleanOperator:
		left, right, op := t.Field(n, syntax.FLeft), t.Field(n, syntax.FRight), t.Field(n, syntax.FOperator)
		if left == syntax.NoNode || right == syntax.NoNode || op == syntax.NoNode {
			break
		}
		b.mark(n)
		mid, done := b.newBlock(KindCondNext, n), b.newBlock(KindCondDone, n)
		if t.Kind(op) == syntax.KwAnd {
			b.cond(left, mid, done) // a false left is the result
		} else {
			b.cond(left, done, mid)
		}
		b.cur = mid
		b.expr(right)
		b.goTo(done)
		return
	case syntax.ConditionalExpression:
		a, c, e, ok := condExprParts(t, n)
		if !ok {
			break
		}
		b.mark(n)
		then, els, done := b.newBlock(KindCondThen, n), b.newBlock(KindCondElse, n), b.newBlock(KindCondDone, n)
		b.cond(c, then, els)
		b.cur = then
		b.expr(a)
		b.goTo(done)
		b.cur = els
		b.expr(e)
		b.goTo(done)
		return
	case syntax.ParenthesizedExpression, syntax.ExpressionStatement:
		// Pure wrappers: their parts are the whole evaluation.
		b.mark(n)
		for c := range t.NamedChildren(n) {
			b.expr(c)
		}
		return
	}
	// Any other node: lower the parts that short-circuit, in evaluation
	// order (an assignment evaluates its right side first), then n.
	if k := t.Kind(n); k == syntax.Assignment || k == syntax.AugmentedAssignment {
		if r := t.Field(n, syntax.FRight); r != syntax.NoNode && b.needsSplit(r) {
			b.expr(r)
		}
	} else {
		for c := range t.NamedChildren(n) {
			if b.needsSplit(c) {
				b.expr(c)
			}
		}
	}
	b.add(n)
	b.splits = append(b.splits, n)
}

// opaqueExpr reports nodes whose insides are not evaluated at this point
// (a separate scope) or are not trusted (ERROR).
func opaqueExpr(t *syntax.Tree, i syntax.NodeID) bool {
	switch t.Kind(i) {
	case syntax.Lambda, syntax.ListComprehension, syntax.SetComprehension,
		syntax.DictionaryComprehension, syntax.GeneratorExpression,
		syntax.FunctionDefinition, syntax.ClassDefinition, syntax.DecoratedDefinition:
		return true
	}
	return t.IsError(i)
}

// scanSplits appends to dst the short-circuit nodes (and/or, conditional
// expressions) evaluated as part of n, in preorder.
func (b *builder) scanSplits(n syntax.NodeID, dst []syntax.NodeID) []syntax.NodeID {
	t := b.t
	end := t.SubtreeEnd(n)
	for i := n; i < end; i++ {
		if opaqueExpr(t, i) {
			i = t.SubtreeEnd(i) - 1
			continue
		}
		if k := t.Kind(i); k == syntax.BooleanOperator || k == syntax.ConditionalExpression {
			dst = append(dst, i)
		}
	}
	return dst
}

// needsSplit reports whether n contains a short-circuit found by the
// enclosing top-level scan.
func (b *builder) needsSplit(n syntax.NodeID) bool {
	if opaqueExpr(b.t, n) {
		return false
	}
	i := sort.Search(len(b.splitAt), func(i int) bool { return b.splitAt[i] >= n })
	return i < len(b.splitAt) && b.splitAt[i] < b.t.SubtreeEnd(n)
}
