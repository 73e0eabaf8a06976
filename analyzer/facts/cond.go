package facts

import (
	"slices"
	"strconv"

	"github.com/sglint/sglint/analyzer/syntax"
)

// condFacts appends the facts that hold when expression n evaluates to
// val. Edge conditions from package cfg are atomic, but lambda bodies of
// waits are not, so `and`, `or`, `not` and parentheses are handled here
// too: for `a or b` being true, what holds is what holds both when a is
// true and when a is false and b true.
func (a *analysis) condFacts(n syntax.NodeID, val bool, dst []int32) []int32 {
	t := a.t
	n = t.Unparen(n)
	if n == syntax.NoNode || t.IsError(n) {
		return dst
	}
	switch t.Kind(n) {
	case syntax.NotOperator:
		return a.condFacts(t.Field(n, syntax.FArgument), !val, dst)
	case syntax.BooleanOperator:
		left, right, op := t.Field(n, syntax.FLeft), t.Field(n, syntax.FRight), t.Field(n, syntax.FOperator)
		if op == syntax.NoNode {
			return dst
		}
		and := t.Kind(op) == syntax.KwAnd
		if and == val {
			// `a and b` true, `a or b` false: both operands took val.
			dst = a.condFacts(left, val, dst)
			return a.condFacts(right, val, dst)
		}
		// `a and b` false: a false, or a true and b false (dually for or).
		short := a.condFacts(left, val, nil)
		long := a.condFacts(right, val, a.condFacts(left, !val, nil))
		for _, f := range short {
			if slices.Contains(long, f) {
				dst = append(dst, f)
			}
		}
		return dst
	case syntax.NamedExpression:
		return a.truth(t.Field(n, syntax.FName), val, dst)
	case syntax.ComparisonOperator:
		return a.compareFacts(n, val, dst)
	case syntax.Call:
		return a.callTestFacts(n, val, dst)
	case syntax.Identifier:
		if v, ok := a.subst[string(t.Bytes(n))]; ok {
			// A predicate's local, read as what it was given; no deeper:
			// the value was written before the local, so cannot name it.
			sub := a.subst
			a.subst = nil
			dst = a.condFacts(v, val, dst)
			a.subst = sub
			return dst
		}
		return a.truth(n, val, dst)
	case syntax.Attribute, syntax.Subscript:
		return a.truth(n, val, dst)
	case syntax.BinaryOperator:
		// `if len(x) // k:` true: the length is not 0.
		if x, ok := zeroLenArg(t, n); ok && val {
			return a.truth(x, true, dst)
		}
	}
	return dst
}

// truth: path n tested for truth.
func (a *analysis) truth(n syntax.NodeID, val bool, dst []int32) []int32 {
	k := Falsy
	if val {
		k = Truthy
	}
	return a.pathFact(n, k, dst)
}

// pathFact appends the fact of kind k (one about a path alone: IsNone,
// NotNone, Truthy, Falsy, NonZero) about expression n, when n is a path.
func (a *analysis) pathFact(n syntax.NodeID, k Kind, dst []int32) []int32 {
	p, ok := a.paths.ofNode(a.t, n, false)
	if !ok {
		return dst
	}
	return a.appendFact(dst, ifact{kind: k, path: p, key: noPath, other: noPath})
}

// unwalrus sees through parentheses and `(v := e)` to the bound name.
func unwalrus(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	n = t.Unparen(n)
	if n != syntax.NoNode && t.Kind(n) == syntax.NamedExpression {
		return t.Field(n, syntax.FName)
	}
	return n
}

func (a *analysis) compareFacts(n syntax.NodeID, val bool, dst []int32) []int32 {
	t := a.t
	var operands [3]syntax.NodeID
	no := 0
	for c := range t.NamedChildren(n) {
		if no == len(operands) {
			return dst
		}
		operands[no] = c
		no++
	}
	var ops [2]syntax.Kind
	nops := 0
	for c := range t.FieldAll(n, syntax.FOperators) {
		if nops == len(ops) {
			return dst
		}
		ops[nops] = t.Kind(c)
		nops++
	}
	if nops != no-1 || nops == 0 {
		return dst
	}
	if nops == 2 {
		// A chain `0 < len(x) <= 3` is true when both comparisons are;
		// when false nothing is known about either.
		if !val {
			return dst
		}
		dst = a.compare(operands[0], ops[0], operands[1], true, dst)
		return a.compare(operands[1], ops[1], operands[2], true, dst)
	}
	return a.compare(operands[0], ops[0], operands[1], val, dst)
}

// compare: `l op r` evaluated to val.
func (a *analysis) compare(l syntax.NodeID, op syntax.Kind, r syntax.NodeID, val bool, dst []int32) []int32 {
	t := a.t
	l, r = unwalrus(t, l), unwalrus(t, r)
	if l == syntax.NoNode || r == syntax.NoNode {
		return dst
	}
	// len(x) against len(y).
	if x, ok := lenArg(t, l); ok {
		if y, ok := lenArg(t, r); ok && (op == syntax.OpEq || op == syntax.OpNe) {
			same := (op == syntax.OpEq) == val
			return a.lenPair(x, y, same, dst)
		}
	}
	// len(x) against an integer, either side.
	if x, ok := lenArg(t, l); ok {
		if c, ok := intLit(t, r); ok {
			return a.lenFacts(x, op, c, val, dst)
		}
	}
	if x, ok := lenArg(t, r); ok {
		if c, ok := intLit(t, l); ok {
			return a.lenFacts(x, flip(op), c, val, dst)
		}
	}
	// n against an integer that the outcome rules 0 out of: n != 0 (and
	// not None, below, when equal to it).
	if c, ok := intLit(t, r); ok {
		dst = a.zeroTest(l, op, c, val, dst)
	} else if c, ok := intLit(t, l); ok {
		dst = a.zeroTest(r, flip(op), c, val, dst)
	}
	switch op {
	case syntax.KwIs, syntax.OpIsNot, syntax.OpEq, syntax.OpNe:
		neg := op == syntax.OpIsNot || op == syntax.OpNe
		x := syntax.NoNode
		switch {
		case t.Kind(r) == syntax.None:
			x = l
		case t.Kind(l) == syntax.None:
			x = r
		default:
			// x == "literal" (or x != "literal" being false): x is not None.
			if (op == syntax.OpEq || op == syntax.OpNe) && val != neg {
				if notNoneLiteral(t, r) {
					x = l
				} else if notNoneLiteral(t, l) {
					x = r
				}
				return a.pathFact(x, NotNone, dst)
			}
			return dst
		}
		k := NotNone
		if val != neg {
			k = IsNone
		}
		if k == NotNone {
			dst = a.getFound(x, false, dst) // `t.get(k) is not None`: k in t
		}
		return a.pathFact(x, k, dst)
	case syntax.KwIn, syntax.OpNotIn:
		in := val != (op == syntax.OpNotIn)
		if in && literalMembers(t, r) {
			// `kind in ("VRAM", "DRAM")`: kind is one of them, not None.
			return a.pathFact(l, NotNone, dst)
		}
		table, ok := a.paths.ofNode(t, keysOf(t, r), false)
		if !ok {
			return dst
		}
		key, ok := a.paths.ofNode(t, l, true)
		if !ok {
			return dst
		}
		k := NotIn
		if in {
			k = In
		}
		return a.appendFact(dst, ifact{kind: k, path: table, key: key, other: noPath})
	}
	return dst
}

func flip(op syntax.Kind) syntax.Kind {
	switch op {
	case syntax.OpLt:
		return syntax.OpGt
	case syntax.OpGt:
		return syntax.OpLt
	case syntax.OpLe:
		return syntax.OpGe
	case syntax.OpGe:
		return syntax.OpLe
	}
	return op
}

// lenFacts: `len(x) op c` evaluated to val.
func (a *analysis) lenFacts(x syntax.NodeID, op syntax.Kind, c int64, val bool, dst []int32) []int32 {
	holds := intOutcome(op, c, val)
	if holds == nil {
		return dst
	}
	return a.lenOutcome(x, holds, c, dst)
}

// lenOutcome: len(x) satisfies holds, a test against integers up to
// maxc. It learns emptiness when the lengths satisfying it are all 0 or
// all positive.
func (a *analysis) lenOutcome(x syntax.NodeID, holds func(int64) bool, maxc int64, dst []int32) []int32 {
	zero := holds(0)
	// Lengths above max(maxc, 0)+1 all behave alike; check up to there.
	pos := false
	for l := int64(1); l <= max(maxc, 0)+2; l++ {
		if holds(l) {
			pos = true
			break
		}
	}
	var k Kind
	switch {
	case zero && !pos:
		k = Falsy
	case !zero && pos:
		k = Truthy
	default:
		return dst
	}
	return a.pathFact(x, k, dst)
}

// lenArg: n is the number of elements of x, `len(x)`, or an array's
// `x.size` / `x.numel()` (numpy and torch index arrays are tested that
// way); returns x. `self.size` is an attribute of the object, not the
// size of an array, and is not read as one.
func lenArg(t *syntax.Tree, n syntax.NodeID) (syntax.NodeID, bool) {
	if args, ok := builtinCall(t, n, "len"); ok && len(args) == 1 {
		return args[0], true
	}
	n = t.Unparen(n)
	switch t.Kind(n) {
	case syntax.Attribute:
		if x := t.Field(n, syntax.FObject); t.TextIs(t.Field(n, syntax.FAttribute), "size") && arrayBase(t, x) {
			return x, true
		}
	case syntax.Call:
		fn := t.Field(n, syntax.FFunction)
		argl := t.Field(n, syntax.FArguments)
		if fn == syntax.NoNode || t.Kind(fn) != syntax.Attribute || argl == syntax.NoNode || t.NamedChild(argl, 0) != syntax.NoNode {
			break
		}
		if x := t.Field(fn, syntax.FObject); t.TextIs(t.Field(fn, syntax.FAttribute), "numel") && arrayBase(t, x) {
			return x, true
		}
	}
	return syntax.NoNode, false
}

// arrayBase: x may be an array whose size is asked, not the object
// (`self`, `cls`) whose own attribute is.
func arrayBase(t *syntax.Tree, x syntax.NodeID) bool {
	x = t.Unparen(x)
	return x != syntax.NoNode && !(t.Kind(x) == syntax.Identifier && (t.TextIs(x, "self") || t.TextIs(x, "cls")))
}

// builtinCall matches `name(args...)` with positional arguments only.
func builtinCall(t *syntax.Tree, n syntax.NodeID, name string) ([]syntax.NodeID, bool) {
	n = t.Unparen(n)
	if n == syntax.NoNode || t.Kind(n) != syntax.Call {
		return nil, false
	}
	fn := t.Field(n, syntax.FFunction)
	if fn == syntax.NoNode || t.Kind(fn) != syntax.Identifier || !t.TextIs(fn, name) {
		return nil, false
	}
	argl := t.Field(n, syntax.FArguments)
	if argl == syntax.NoNode || t.Kind(argl) != syntax.ArgumentList {
		return nil, false
	}
	var args []syntax.NodeID
	for c := range t.NamedChildren(argl) {
		switch t.Kind(c) {
		case syntax.KeywordArgument, syntax.ListSplat, syntax.DictionarySplat, syntax.ParenthesizedListSplat:
			return nil, false
		}
		args = append(args, c)
	}
	return args, true
}

func intLit(t *syntax.Tree, n syntax.NodeID) (int64, bool) {
	n = t.Unparen(n)
	if t.Kind(n) != syntax.Integer {
		return 0, false
	}
	v, err := strconv.ParseInt(t.Text(n), 0, 64)
	if err != nil || v > 1<<20 {
		return 0, false
	}
	return v, true
}

// notNoneLiteral: a literal that is certainly not None.
func notNoneLiteral(t *syntax.Tree, n syntax.NodeID) bool {
	switch t.Kind(t.Unparen(n)) {
	case syntax.String, syntax.ConcatenatedString, syntax.Integer, syntax.Float, syntax.True, syntax.False:
		return true
	}
	return false
}

// callTestFacts: a call used as a condition: isinstance, len, bool.
func (a *analysis) callTestFacts(n syntax.NodeID, val bool, dst []int32) []int32 {
	t := a.t
	if args, ok := builtinCall(t, n, "isinstance"); ok && len(args) == 2 {
		p, ok := a.paths.ofNode(t, args[0], false)
		if !ok {
			return dst
		}
		k := NotInstance
		if val {
			k = IsInstance
		}
		cls := a.paths.literal(compactText(t, args[1]))
		return a.appendFact(dst, ifact{kind: k, path: p, key: noPath, other: cls})
	}
	if x, ok := lenArg(t, n); ok {
		return a.truth(x, val, dst)
	}
	if x, ok := zeroLenArg(t, n); ok {
		if val { // `int(len(x) / k)` true: the length is not 0
			dst = a.truth(x, true, dst)
		}
		return dst
	}
	if args, ok := builtinCall(t, n, "bool"); ok && len(args) == 1 {
		return a.condFacts(args[0], val, dst)
	}
	if val {
		dst = a.getFound(n, true, dst) // `if t.get(k):` found k in t
	}
	if a.opts.CallTests != nil {
		for _, f := range a.opts.CallTests(n, val) {
			if id, ok := a.intern(f); ok {
				dst = append(dst, id)
			}
		}
	}
	return dst
}

// compactText is n's text without whitespace (class expressions).
func compactText(t *syntax.Tree, n syntax.NodeID) string {
	b := t.Bytes(n)
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\\' {
			out = append(out, c)
		}
	}
	return string(out)
}
