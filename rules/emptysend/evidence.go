package emptysend

import (
	"fmt"
	"slices"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/reaching"
	"github.com/sglint/sglint/analyzer/syntax"
)

// origin says why the indices can be empty: a clause for the message, the
// places to show, and the local names the value passed through (a length
// test on any of them before the send refuses the empty chunk).
type origin struct {
	why     string
	related []analyzer.Related
	names   []string
}

func (o *origin) through(name string) *origin {
	if o == nil || slices.Contains(o.names, name) {
		return o
	}
	cp := *o
	cp.names = append(slices.Clone(o.names), name)
	return &cp
}

// maxDepth bounds how far values are followed through locals, calls and
// returns.
const maxDepth = 6

// visit guards the bindings followed in one query against cycles.
type visit map[int32]bool

// canBeEmpty reports, with its origin, whether expression n of fl can be
// an empty sequence where it stands, by evidence in the project: a
// producer that returns an empty slice or array on some path, or a slice
// whose bounds can meet (it starts at a cursor the same function then
// moves to where the chunk ended, or after a prefix-cache hit that can
// cover the chunk). A value with no such evidence is taken as non-empty:
// the rule prefers missing a finding to inventing one. An empty literal
// written at the send itself (depth 0) is deliberate (a metadata-only
// send) and is not evidence.
func (c *checker) canBeEmpty(fl *flow, n syntax.NodeID, depth int, seen visit) *origin {
	t := fl.tree
	n = t.Unparen(n)
	if n == syntax.NoNode || depth > maxDepth || t.IsError(n) {
		return nil
	}
	if p, ok := facts.PathOf(t, n); ok && fl.facts != nil && fl.facts.Holds(n, facts.NonEmptyFact(p)) {
		return nil // tested (or known) non-empty on every path
	}
	switch t.Kind(n) {
	case syntax.List, syntax.Tuple:
		if depth > 0 && t.NamedChild(n, 0) == syntax.NoNode {
			return c.emptyAt(fl, n, "an empty list")
		}
	case syntax.ConditionalExpression:
		for _, arm := range []syntax.NodeID{t.NamedChild(n, 0), t.NamedChild(n, 2)} {
			if o := c.canBeEmpty(fl, arm, depth+1, seen); o != nil {
				return o
			}
		}
	case syntax.Call:
		return c.callCanBeEmpty(fl, n, depth, seen)
	case syntax.Subscript:
		return c.sliceCanBeEmpty(fl, n)
	case syntax.Identifier:
		name := t.Text(n)
		for _, d := range fl.defs.Reaching(n, name) {
			if o := c.defCanBeEmpty(fl, d, depth, seen); o != nil {
				return o.through(name)
			}
		}
	}
	return nil
}

func (c *checker) emptyAt(fl *flow, n syntax.NodeID, what string) *origin {
	line := fl.tree.Start(n).Line
	return &origin{
		why:     fmt.Sprintf("%s on line %d of `%s`", what, line, c.ix.Func(fl.fn).QualName),
		related: []analyzer.Related{analyzer.RelatedAt(fl.file, n, what+" here")},
	}
}

func (c *checker) defCanBeEmpty(fl *flow, d int32, depth int, seen visit) *origin {
	if seen == nil {
		seen = visit{}
	}
	if seen[d] {
		return nil
	}
	seen[d] = true
	def := fl.defs.Def(d)
	switch def.Kind {
	case reaching.Assign:
		if def.Value != syntax.NoNode {
			return c.canBeEmpty(fl, def.Value, depth+1, seen)
		}
	case reaching.Unpack:
		// `pages, span = filter_for_rank(...)`: the element of what the
		// producer returns.
		rhs, pos := unpacked(fl.tree, def.Target)
		if rhs != syntax.NoNode && fl.tree.Kind(rhs) == syntax.Call {
			if cal, ok := c.callee(fl, rhs); ok {
				return c.returnsEmpty(cal, pos, depth+1)
			}
		}
	}
	return nil
}

// unpacked finds the assignment that binds target inside a tuple pattern:
// its right side and target's position in the pattern.
func unpacked(t *syntax.Tree, target syntax.NodeID) (syntax.NodeID, int) {
	pat := t.Parent(target)
	for pat != syntax.NoNode && t.Kind(pat) == syntax.ParenthesizedExpression {
		pat = t.Parent(pat)
	}
	if pat == syntax.NoNode {
		return syntax.NoNode, -1
	}
	switch t.Kind(pat) {
	case syntax.PatternList, syntax.TuplePattern, syntax.ExpressionList, syntax.Tuple:
	default:
		return syntax.NoNode, -1
	}
	asg := t.Parent(pat)
	if asg == syntax.NoNode || t.Kind(asg) != syntax.Assignment || t.Field(asg, syntax.FLeft) != pat {
		return syntax.NoNode, -1
	}
	pos := 0
	for e := range t.NamedChildren(pat) {
		if e == target || t.Contains(e, target) {
			return t.Field(asg, syntax.FRight), pos
		}
		pos++
	}
	return syntax.NoNode, -1
}

// passThrough are the array methods whose result is empty exactly when
// their receiver is.
var passThrough = map[string]bool{
	"cpu": true, "numpy": true, "tolist": true, "astype": true, "to": true, "contiguous": true,
	"clone": true, "copy": true, "flatten": true, "long": true, "int": true, "cuda": true,
}

// emptyCtors build an empty array from an empty list or a zero size.
var emptyCtors = map[string]bool{"array": true, "asarray": true, "empty": true, "zeros": true, "tensor": true}

func (c *checker) callCanBeEmpty(fl *flow, n syntax.NodeID, depth int, seen visit) *origin {
	t := fl.tree
	fn := t.Field(n, syntax.FFunction)
	args := t.Field(n, syntax.FArguments)
	first := syntax.NoNode
	if args != syntax.NoNode {
		first = t.NamedChild(args, 0)
	}
	if fn != syntax.NoNode && t.Kind(fn) == syntax.Attribute {
		name := t.Text(t.Field(fn, syntax.FAttribute))
		if passThrough[name] {
			return c.canBeEmpty(fl, t.Field(fn, syntax.FObject), depth, seen)
		}
		if emptyCtors[name] && depth > 0 && first != syntax.NoNode && emptyArg(t, first) {
			return c.emptyAt(fl, n, "an empty array")
		}
	}
	cal, ok := c.callee(fl, n)
	if !ok {
		return nil
	}
	if o := c.returnsEmpty(cal, -1, depth+1); o != nil {
		return o
	}
	// An index transform (`kv_to_page_indices(kv_indices, page_size)`) is
	// empty when its input is.
	if first != syntax.NoNode && t.Kind(first) != syntax.KeywordArgument && c.transformsFirst(cal) {
		return c.canBeEmpty(fl, first, depth+1, seen)
	}
	return nil
}

// emptyArg: `[]`, `()` or `0`.
func emptyArg(t *syntax.Tree, n syntax.NodeID) bool {
	n = t.Unparen(n)
	switch t.Kind(n) {
	case syntax.List, syntax.Tuple:
		return t.NamedChild(n, 0) == syntax.NoNode
	case syntax.Integer:
		return t.TextIs(n, "0")
	}
	return false
}

// callee resolves call node n of fl to the one project function it runs.
func (c *checker) callee(fl *flow, n syntax.NodeID) (pymodel.FuncRef, bool) {
	site, ok := c.ix.CallAt(fl.fn.File, n)
	if !ok {
		return pymodel.NoFunc, false
	}
	var found pymodel.FuncRef
	ok = false
	for _, cal := range c.ix.Callees(site) {
		if cal.Func.Valid() && !cal.Virtual {
			found, ok = cal.Func, true
		}
	}
	return found, ok
}

type retKey struct {
	fn  pymodel.FuncRef
	pos int
}

// returnsEmpty reports whether function fn returns, on some path, a value
// (element pos of a returned tuple, pos >= 0) that can be empty.
func (c *checker) returnsEmpty(fn pymodel.FuncRef, pos, depth int) *origin {
	key := retKey{fn, pos}
	if o, ok := c.returns[key]; ok {
		return o
	}
	c.returns[key] = nil // a recursive call finds nothing
	var found *origin
	if fl := c.flowOf(fn); fl != nil && depth <= maxDepth {
		for _, v := range returnValues(fl.tree, fl.def) {
			if pos >= 0 {
				if v = element(fl.tree, v, pos); v == syntax.NoNode {
					continue
				}
			}
			if o := c.canBeEmpty(fl, v, depth+1, nil); o != nil {
				found = &origin{why: o.why, related: o.related}
				break
			}
		}
	}
	c.returns[key] = found
	return found
}

// element is the pos-th element of a returned tuple.
func element(t *syntax.Tree, v syntax.NodeID, pos int) syntax.NodeID {
	v = t.Unparen(v)
	switch t.Kind(v) {
	case syntax.Tuple, syntax.ExpressionList:
		return t.NamedChild(v, pos)
	}
	return syntax.NoNode
}

// returnValues are the expressions the function's own return statements
// return (not those of nested functions).
func returnValues(t *syntax.Tree, def syntax.NodeID) []syntax.NodeID {
	body := t.Field(def, syntax.FBody)
	if body == syntax.NoNode {
		return nil
	}
	var out []syntax.NodeID
	for n := body; n < t.SubtreeEnd(body); n++ {
		switch t.Kind(n) {
		case syntax.FunctionDefinition, syntax.Lambda, syntax.ClassDefinition:
			n = t.SubtreeEnd(n) - 1
		case syntax.ReturnStatement:
			if v := t.NamedChild(n, 0); v != syntax.NoNode {
				out = append(out, v)
			}
		}
	}
	return out
}

// transformsFirst reports whether every value fn returns is computed from
// its first parameter by slicing, arithmetic or array methods (or is that
// parameter): such a result is empty when the argument is.
func (c *checker) transformsFirst(fn pymodel.FuncRef) bool {
	f := c.ix.Func(fn)
	var first string
	for i, p := range f.Params {
		if p.Kind != pymodel.Positional {
			return false
		}
		if i == 0 && (f.Kind == pymodel.Method || f.Kind == pymodel.ClassMethod) {
			continue
		}
		first = p.Name
		break
	}
	fl := c.flowOf(fn)
	if first == "" || fl == nil {
		return false
	}
	vals := returnValues(fl.tree, fl.def)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !rootedAt(fl.tree, v, first) {
			return false
		}
	}
	return true
}

// rootedAt: n is name, or a subscript, an operation or a method call whose
// leftmost operand is rooted at name.
func rootedAt(t *syntax.Tree, n syntax.NodeID, name string) bool {
	for n != syntax.NoNode {
		n = t.Unparen(n)
		switch t.Kind(n) {
		case syntax.Identifier:
			return t.TextIs(n, name)
		case syntax.Subscript:
			n = t.Field(n, syntax.FValue)
		case syntax.BinaryOperator:
			n = t.Field(n, syntax.FLeft)
		case syntax.Call:
			fn := t.Field(n, syntax.FFunction)
			if fn == syntax.NoNode || t.Kind(fn) != syntax.Attribute {
				return false
			}
			n = t.Field(fn, syntax.FObject)
		default:
			return false
		}
	}
	return false
}

// sliceCanBeEmpty: a slice `b[lo:hi]` (also `b[row, lo:hi]`) whose bounds
// can meet.
func (c *checker) sliceCanBeEmpty(fl *flow, n syntax.NodeID) *origin {
	t := fl.tree
	var sl syntax.NodeID = syntax.NoNode
	for s := range t.FieldAll(n, syntax.FSubscript) {
		if t.Kind(s) == syntax.Slice {
			sl = s
		}
	}
	if sl == syntax.NoNode {
		return nil
	}
	lo, hi, step := t.SliceParts(sl)
	if step != syntax.NoNode {
		return nil
	}
	switch {
	case hi != syntax.NoNode && (lo == syntax.NoNode || t.TextIs(lo, "0")) && t.TextIs(hi, "0"):
		return c.emptyAt(fl, n, "an empty slice")
	case lo != syntax.NoNode && hi != syntax.NoNode && t.Text(lo) == t.Text(hi):
		return c.emptyAt(fl, n, "an empty slice")
	case lo == syntax.NoNode:
		return nil
	}
	if cur, at := c.cursor(fl, lo); cur != "" {
		return &origin{
			why: fmt.Sprintf("it slices from `%s`, which `%s` moves to where the chunk ended (line %d): a call "+
				"before the end has moved past it slices nothing", cur, c.ix.Func(fl.fn).QualName, t.Start(at).Line),
			related: []analyzer.Related{
				analyzer.RelatedAt(fl.file, n, "the slice starts at the cursor"),
				analyzer.RelatedAt(fl.file, at, "the cursor moves here"),
			},
		}
	}
	if prefixBound(t, lo) {
		return &origin{
			why:     fmt.Sprintf("it starts after the prefix-cache hit `%s`, which can cover the whole chunk", clip(t.Text(lo), 40)),
			related: []analyzer.Related{analyzer.RelatedAt(fl.file, n, "the slice starts after the cached prefix")},
		}
	}
	return nil
}

// cursor: lo reads an attribute (`req.start_send_idx`, directly or
// through a local bound to it) that the same function assigns: it
// advances a cursor from one chunk to the next. It returns the attribute
// and the assignment.
func (c *checker) cursor(fl *flow, lo syntax.NodeID) (string, syntax.NodeID) {
	t := fl.tree
	lo = t.Unparen(lo)
	var attr string
	switch t.Kind(lo) {
	case syntax.Attribute:
		attr = t.Text(lo)
	case syntax.Identifier:
		for _, d := range fl.defs.Reaching(lo, t.Text(lo)) {
			def := fl.defs.Def(d)
			if def.Kind != reaching.Assign || def.Value == syntax.NoNode {
				return "", syntax.NoNode
			}
			v := t.Unparen(def.Value)
			if t.Kind(v) != syntax.Attribute || attr != "" && attr != t.Text(v) {
				return "", syntax.NoNode
			}
			attr = t.Text(v)
		}
	}
	if attr == "" {
		return "", syntax.NoNode
	}
	end := t.SubtreeEnd(fl.def)
	for n := fl.def; n < end; n++ {
		if t.Kind(n) == syntax.Assignment {
			if l := t.Field(n, syntax.FLeft); l != syntax.NoNode && t.Kind(l) == syntax.Attribute && t.Text(l) == attr {
				return attr, n
			}
		}
	}
	return "", syntax.NoNode
}

// prefixBound: the bound is the length of a cached prefix
// (`len(req.prefix_indices)`, `prefix_len`).
func prefixBound(t *syntax.Tree, lo syntax.NodeID) bool {
	end := t.SubtreeEnd(lo)
	for n := lo; n < end; n++ {
		if t.Kind(n) == syntax.Identifier && containsFold(t.Text(n), "prefix") {
			return true
		}
	}
	return false
}
