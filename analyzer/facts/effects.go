package facts

import (
	"slices"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
)

// An item's effect on the facts, in evaluation order.
type effOp uint8

const (
	opRebind effOp = iota // path bound anew: its facts and those built on it die
	opMutate              // object at path changed in place: emptiness and contents die
	opGen                 // fact learnt
	// opRemoveKey: a key removed from the table at path by a loop over a
	// list of its keys, the key the loop is on (`for k in ks: del t[k]`):
	// as opMutate, but lists of its keys keep their KeysOf facts, since the
	// loop visits each (distinct) key once.
	opRemoveKey
)

type effect struct {
	op   effOp
	path pathID // opRebind, opMutate
	arg  int32  // opGen: the fact; kills: the kill info (set once the universe is known)
}

// Methods that change a container's contents in place.
var mutators = map[string]bool{
	"append": true, "appendleft": true, "extend": true, "extendleft": true, "insert": true,
	"add": true, "update": true, "setdefault": true, "pop": true, "popleft": true,
	"popitem": true, "remove": true, "discard": true, "clear": true,
	"difference_update": true, "intersection_update": true,
	"symmetric_difference_update": true, "__setitem__": true, "__delitem__": true,
}

// Mutators after which the container is certainly non-empty.
var fillers = map[string]bool{"append": true, "appendleft": true, "add": true, "insert": true, "setdefault": true}

func (a *analysis) rebind(p pathID) {
	a.effs = append(a.effs, effect{op: opRebind, path: p})
}

func (a *analysis) mutate(p pathID) {
	a.effs = append(a.effs, effect{op: opMutate, path: p})
}

func (a *analysis) learn(f ifact) {
	if id := a.fact(f); id >= 0 {
		a.effs = append(a.effs, effect{op: opGen, arg: id})
	}
}

// itemEffects appends the effects of evaluating block node n.
func (a *analysis) itemEffects(n syntax.NodeID) {
	t := a.t
	switch t.Kind(n) {
	case syntax.FunctionDefinition, syntax.ClassDefinition:
		a.bindName(t.Field(n, syntax.FName))
		return
	case syntax.DecoratedDefinition:
		if d := t.Field(n, syntax.FDefinition); d != syntax.NoNode {
			a.bindName(t.Field(d, syntax.FName))
		}
		return
	case syntax.ImportStatement, syntax.ImportFromStatement, syntax.FutureImportStatement:
		a.importEffects(n)
		return
	case syntax.CasePattern:
		a.bindAllNames(n) // captures (over-approximated: every name in the pattern)
		return
	}
	if p := t.Parent(n); p != syntax.NoNode && t.Kind(p) == syntax.ForStatement && t.FieldOf(n) == syntax.FLeft {
		a.bindTargets(n) // a loop's target, bound on each iteration
		a.loopKeys(n, t.Field(p, syntax.FRight), t.Field(p, syntax.FBody))
		return
	}
	if isAsTarget(t, n) {
		a.bindTargets(n) // except ... as e
		return
	}

	// Anything else: find the assignments, walruses, deletions and calls
	// evaluated as part of n, and apply them children first.
	a.cands = a.cands[:0]
	a.loads = a.loads[:0]
	var skip []cfg.Site
	if a.g.IsSplit(n) {
		skip = a.g.SitesWithin(n+1, t.SubtreeEnd(n))
	}
	end := t.SubtreeEnd(n)
	for i := n; i < end; i++ {
		if i != n && len(skip) > 0 {
			if j := a.skipTo(skip, i); j != i {
				i = j - 1
				continue
			}
		}
		switch t.Kind(i) {
		case syntax.ListComprehension, syntax.SetComprehension,
			syntax.DictionaryComprehension, syntax.GeneratorExpression:
			a.pendingComps = append(a.pendingComps, i) // see comp.go
			a.localGuards(i)
			i = t.SubtreeEnd(i) - 1 // its own scope
			continue
		case syntax.Lambda, syntax.FunctionDefinition, syntax.ClassDefinition:
			i = t.SubtreeEnd(i) - 1 // their own scope
			continue
		case syntax.Assignment, syntax.AugmentedAssignment, syntax.NamedExpression,
			syntax.DeleteStatement, syntax.Call:
			a.cands = append(a.cands, i)
		case syntax.Type:
			i = t.SubtreeEnd(i) - 1 // an annotation: a type, not code run here
			continue
		case syntax.Subscript:
			a.loads = append(a.loads, i)
		default:
			if t.IsError(i) {
				i = t.SubtreeEnd(i) - 1
			} else if isAsTarget(t, i) {
				a.cands = append(a.cands, i) // with ... as x
			}
		}
	}
	a.learnLookups(n)
	if len(a.cands) == 0 {
		return
	}
	// Children before parents (postorder): by subtree end, then deepest.
	if len(a.cands) > 1 {
		ends := a.ends[:0]
		for _, c := range a.cands {
			ends = append(ends, t.SubtreeEnd(c))
		}
		a.ends = ends
		idx := make([]int, len(a.cands))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(x, y int) int {
			if ends[x] != ends[y] {
				return int(ends[x] - ends[y])
			}
			return int(a.cands[y] - a.cands[x])
		})
		sorted := make([]syntax.NodeID, len(idx))
		for i, j := range idx {
			sorted[i] = a.cands[j]
		}
		copy(a.cands, sorted)
	}
	for _, c := range a.cands {
		a.candEffects(c)
	}
}

// learnLookups: a subscript read that did not raise found its key, so
// after item n completes normally, `key in table` holds (and with it, the
// table is not empty): a second `t[k]` in the same path is as safe as one
// after `if k in t`. Learnt before the item's other effects, so that a
// kill in the same item (a call that may clear t, `t.pop(k)`) wins;
// targets (`t[k] = v`, `del t[k]`) are not reads.
func (a *analysis) learnLookups(n syntax.NodeID) {
	t := a.t
	for _, s := range a.loads {
		if isTarget(t, s, n) {
			continue
		}
		k := subscriptKey(t, s)
		if k == syntax.NoNode {
			continue
		}
		table, ok := a.paths.ofNode(t, t.Field(s, syntax.FValue), false)
		if !ok {
			continue
		}
		key, ok := a.paths.ofNode(t, k, true)
		if !ok {
			continue
		}
		a.learn(ifact{kind: In, path: table, key: key, other: noPath})
	}
}

// isTarget reports whether x, inside item n, is (within) something
// assigned to or deleted rather than read. (Loop and `as` targets that are
// whole items never get here: itemEffects binds them first.)
func isTarget(t *syntax.Tree, x, n syntax.NodeID) bool {
	for c := x; c != n; c = t.Parent(c) {
		p := t.Parent(c)
		if p == syntax.NoNode {
			return false
		}
		switch t.Kind(p) {
		case syntax.Assignment, syntax.AugmentedAssignment:
			if t.FieldOf(c) == syntax.FLeft {
				return true
			}
		case syntax.DeleteStatement:
			return true
		}
	}
	return isAsTarget(t, x)
}

// skipTo returns the end of the separately evaluated node that starts at
// i (a part of a split node), or i itself.
func (a *analysis) skipTo(skip []cfg.Site, i syntax.NodeID) syntax.NodeID {
	k, found := slices.BinarySearchFunc(skip, i, func(s cfg.Site, n syntax.NodeID) int { return int(s.Node - n) })
	if !found {
		return i
	}
	for ; k < len(skip) && skip[k].Node == i; k++ {
		s := skip[k]
		if nodes := a.g.Blocks[s.Block].Nodes; int(s.Index) < len(nodes) && nodes[s.Index] == i {
			return a.t.SubtreeEnd(i)
		}
	}
	return i
}

func (a *analysis) candEffects(c syntax.NodeID) {
	t := a.t
	switch t.Kind(c) {
	case syntax.Assignment:
		right := t.Field(c, syntax.FRight)
		if right == syntax.NoNode {
			return // a bare annotation binds nothing
		}
		for t.Kind(t.Unparen(right)) == syntax.Assignment { // a = b = v
			right = t.Field(t.Unparen(right), syntax.FRight)
		}
		left := t.Field(c, syntax.FLeft)
		if isPattern(t, left) {
			a.bindTargets(left)
			return
		}
		a.assign(left, right)
	case syntax.AugmentedAssignment:
		if p, ok := a.paths.ofNode(t, t.Field(c, syntax.FLeft), false); ok {
			a.mutate(p) // in place for lists, sets, dicts
			a.rebind(p)
		}
	case syntax.NamedExpression:
		a.assign(t.Field(c, syntax.FName), t.Field(c, syntax.FValue))
	case syntax.DeleteStatement:
		for x := range t.NamedChildren(c) {
			if t.Kind(x) == syntax.ExpressionList {
				for y := range t.NamedChildren(x) {
					a.delete(y)
				}
			} else {
				a.delete(x)
			}
		}
	case syntax.Call:
		a.callEffects(c)
	default:
		if isAsTarget(t, c) {
			a.bindTargets(c)
		}
	}
}

// isAsTarget: the target of `with ... as x` or `except ... as e`.
func isAsTarget(t *syntax.Tree, n syntax.NodeID) bool {
	p := t.Parent(n)
	return p != syntax.NoNode && t.FieldOf(n) == syntax.FAlias && t.Kind(p) == syntax.AsPattern
}

func isPattern(t *syntax.Tree, n syntax.NodeID) bool {
	switch t.Kind(t.Unparen(n)) {
	case syntax.PatternList, syntax.TuplePattern, syntax.ListPattern, syntax.Tuple,
		syntax.List, syntax.ExpressionList, syntax.ListSplatPattern, syntax.ListSplat:
		return true
	}
	return false
}

// assign: target = value (value may be NoNode: unknown).
func (a *analysis) assign(target, value syntax.NodeID) {
	t := a.t
	target = t.Unparen(target)
	if target == syntax.NoNode {
		return
	}
	if t.Kind(target) == syntax.Subscript {
		base, ok := a.paths.ofNode(t, t.Field(target, syntax.FValue), false)
		if !ok {
			return
		}
		a.mutate(base)
		p, ok := a.paths.ofNode(t, target, false)
		if !ok {
			return
		}
		a.rebind(p)
		a.learn(ifact{kind: In, path: base, key: a.paths.e[p].key, other: noPath})
		a.valueFacts(p, value)
		return
	}
	p, ok := a.paths.ofNode(t, target, false)
	if !ok {
		return
	}
	a.rebind(p)
	a.valueFacts(p, value)
}

// valueFacts: what is known about p right after `p = v`.
func (a *analysis) valueFacts(p pathID, v syntax.NodeID) {
	t := a.t
	v = unwalrus(t, v)
	if v == syntax.NoNode {
		return
	}
	if q, ok := a.paths.ofNode(t, v, false); ok {
		if q != p && !a.paths.dependsOn(q, p) && !a.paths.dependsOn(p, q) {
			a.learn(ifact{kind: Alias, path: p, key: noPath, other: q})
		}
		return
	}
	f := ifact{path: p, key: noPath, other: noPath}
	switch t.Kind(v) {
	case syntax.Subscript:
		if a.cutValue(p, v) {
			f.kind = NotNone
			a.learn(f)
		}
		return
	case syntax.None:
		f.kind = IsNone
		a.learn(f)
		return
	case syntax.List, syntax.Dictionary, syntax.Set, syntax.Tuple, syntax.String, syntax.ConcatenatedString:
		f.kind = NotNone
		a.learn(f)
		switch empty, known := literalEmpty(t, v); {
		case known && empty:
			f.kind = Falsy
			a.learn(f)
		case known:
			f.kind = Truthy
			a.learn(f)
		}
		return
	case syntax.Integer, syntax.Float, syntax.True, syntax.False, syntax.Lambda,
		syntax.ListComprehension, syntax.SetComprehension, syntax.DictionaryComprehension,
		syntax.GeneratorExpression, syntax.BinaryOperator:
		a.keysValue(p, v)
		if !a.lenValue(p, v) {
			f.kind = NotNone
			a.learn(f)
		}
		return
	case syntax.Call:
		if a.lenValue(p, v) {
			return
		}
		a.keysValue(p, v)
		fn := t.Field(v, syntax.FFunction)
		args := t.Field(v, syntax.FArguments)
		if fn == syntax.NoNode || args == syntax.NoNode {
			return
		}
		// Empty constructors of the built-in containers.
		if t.Kind(fn) == syntax.Identifier && t.NamedChild(args, 0) == syntax.NoNode {
			switch string(t.Bytes(fn)) {
			case "list", "dict", "set", "tuple", "str", "bytes", "frozenset", "deque", "OrderedDict", "defaultdict":
				f.kind = NotNone
				a.learn(f)
				f.kind = Falsy
				a.learn(f)
				return
			}
		}
		// v = table.get(key) or table.get(key, None)
		table, key, dflt, ok := getCall(t, v)
		if !ok || (dflt != syntax.NoNode && t.Kind(t.Unparen(dflt)) != syntax.None) {
			return
		}
		tp, ok := a.paths.ofNode(t, table, false)
		if !ok {
			return
		}
		k, ok := a.paths.ofNode(t, key, true)
		if !ok || a.paths.dependsOn(tp, p) || a.paths.dependsOn(k, p) {
			return
		}
		a.learn(ifact{kind: GetOf, path: p, key: k, other: tp})
	}
}

// literalEmpty: whether a container or string literal is empty.
func literalEmpty(t *syntax.Tree, v syntax.NodeID) (empty, known bool) {
	switch t.Kind(v) {
	case syntax.String:
		for c := range t.NamedChildren(v) {
			if k := t.Kind(c); k == syntax.StringContent || k == syntax.Interpolation || k == syntax.EscapeSequence {
				return false, true
			}
		}
		return true, true
	case syntax.ConcatenatedString:
		return false, false
	}
	return t.NamedChild(v, 0) == syntax.NoNode, true
}

func (a *analysis) delete(x syntax.NodeID) {
	t := a.t
	x = t.Unparen(x)
	if t.Kind(x) == syntax.Subscript {
		base, ok := a.paths.ofNode(t, t.Field(x, syntax.FValue), false)
		if !ok {
			return
		}
		if loopKeyRemoval(t, subscriptKey(t, x)) {
			a.effs = append(a.effs, effect{op: opRemoveKey, path: base})
		} else {
			a.mutate(base)
		}
		if p, ok := a.paths.ofNode(t, x, false); ok {
			a.rebind(p)
			a.learn(ifact{kind: NotIn, path: base, key: a.paths.e[p].key, other: noPath})
		}
		return
	}
	if isPattern(t, x) {
		a.bindTargets(x)
		return
	}
	if p, ok := a.paths.ofNode(t, x, false); ok {
		a.rebind(p)
	}
}

// bindTargets rebinds every target in an assignment pattern.
func (a *analysis) bindTargets(n syntax.NodeID) {
	t := a.t
	n = t.Unparen(n)
	if n == syntax.NoNode || t.IsError(n) {
		return
	}
	switch t.Kind(n) {
	case syntax.Identifier, syntax.Attribute, syntax.Subscript:
		a.assign(n, syntax.NoNode)
		return
	}
	for c := range t.NamedChildren(n) {
		a.bindTargets(c)
	}
}

func (a *analysis) bindName(n syntax.NodeID) {
	if n != syntax.NoNode && a.t.Kind(n) == syntax.Identifier {
		a.rebind(a.paths.name(srcString(a.t.Bytes(n))))
	}
}

// bindAllNames rebinds every identifier inside n.
func (a *analysis) bindAllNames(n syntax.NodeID) {
	t := a.t
	end := t.SubtreeEnd(n)
	for i := n; i < end; i++ {
		if t.Kind(i) == syntax.Identifier {
			a.rebind(a.paths.name(srcString(t.Bytes(i))))
		}
	}
}

func (a *analysis) importEffects(n syntax.NodeID) {
	t := a.t
	for c := range t.FieldAll(n, syntax.FName) {
		switch t.Kind(c) {
		case syntax.AliasedImport:
			a.bindName(t.Field(c, syntax.FAlias))
		case syntax.DottedName:
			if t.Kind(n) == syntax.ImportStatement {
				a.bindName(t.NamedChild(c, 0)) // import a.b binds a
			} else {
				last := syntax.NoNode
				for x := range t.NamedChildren(c) {
					last = x
				}
				a.bindName(last)
			}
		}
	}
}

// callEffects: in-place mutations of the receiver, waits, and what the
// caller's hooks say.
func (a *analysis) callEffects(c syntax.NodeID) {
	t := a.t
	fn := t.Field(c, syntax.FFunction)
	if fn == syntax.NoNode {
		return
	}
	name := fn
	if t.Kind(fn) == syntax.Attribute {
		name = t.Field(fn, syntax.FAttribute)
		if name != syntax.NoNode && mutators[string(t.Bytes(name))] {
			if recv, ok := a.paths.ofNode(t, t.Field(fn, syntax.FObject), false); ok {
				m := t.Text(name)
				if args := t.Field(c, syntax.FArguments); m == "pop" && args != syntax.NoNode && loopKeyRemoval(t, t.NamedChild(args, 0)) {
					a.effs = append(a.effs, effect{op: opRemoveKey, path: recv})
				} else {
					a.mutate(recv)
				}
				if fillers[m] {
					a.learn(ifact{kind: Truthy, path: recv, key: noPath, other: noPath})
				}
				if m == "setdefault" {
					if args := t.Field(c, syntax.FArguments); args != syntax.NoNode {
						if k, ok := a.paths.ofNode(t, t.NamedChild(args, 0), true); ok {
							a.learn(ifact{kind: In, path: recv, key: k, other: noPath})
						}
					}
				}
			}
		}
	}
	if name != syntax.NoNode && t.Kind(name) == syntax.Identifier {
		for _, w := range a.waits {
			if t.TextIs(name, w) {
				a.waitEffects(c)
				break
			}
		}
	}
	if a.opts.CallKills != nil {
		for _, p := range a.opts.CallKills(c) {
			if id, ok := a.paths.ofString(p); ok {
				a.rebind(id)
			}
		}
	}
	if a.opts.CallEffects != nil {
		for _, f := range a.opts.CallEffects(c) {
			if id, ok := a.intern(f); ok {
				a.effs = append(a.effs, effect{op: opGen, arg: id})
			}
		}
	}
}

// waitEffects: `wait_for(lambda: cond, ...)` returns once cond holds.
func (a *analysis) waitEffects(c syntax.NodeID) {
	t := a.t
	args := t.Field(c, syntax.FArguments)
	if args == syntax.NoNode {
		return
	}
	for x := range t.NamedChildren(args) {
		if t.Kind(x) == syntax.KeywordArgument {
			x = t.Field(x, syntax.FValue)
		}
		if x == syntax.NoNode || t.Kind(x) != syntax.Lambda {
			continue
		}
		if t.Field(x, syntax.FParameters) != syntax.NoNode {
			continue // the condition depends on what the wait passes in
		}
		for _, f := range a.condFacts(t.Field(x, syntax.FBody), true, nil) {
			a.effs = append(a.effs, effect{op: opGen, arg: f})
		}
		return
	}
}

// localGuards records what holds inside comprehension c while its parts
// are evaluated, beyond its clauses (comp.go): the graph keeps a
// comprehension as one node, so short circuits inside it are not edges.
// The left operand of `and` (true) or `or` (false) holds for the right
// operand, a conditional expression's test for its arms, as in
// `any(k in t and t[k].ready for k in ks)`. Nothing between them kills
// these: calls and walruses inside comprehensions are not modelled.
func (a *analysis) localGuards(c syntax.NodeID) {
	t := a.t
	end := t.SubtreeEnd(c)
	for i := c; i < end; i++ {
		switch t.Kind(i) {
		case syntax.Lambda, syntax.FunctionDefinition, syntax.ClassDefinition:
			i = t.SubtreeEnd(i) - 1 // a graph of its own
		case syntax.BooleanOperator:
			op := t.Field(i, syntax.FOperator)
			if op == syntax.NoNode {
				continue
			}
			and := t.Kind(op) == syntax.KwAnd
			a.addLocal(t.Field(i, syntax.FRight), a.condFacts(t.Field(i, syntax.FLeft), and, nil))
		case syntax.ConditionalExpression:
			// No fields in tree-sitter-python: arm, test, arm.
			body, test, alt := t.NamedChild(i, 0), t.NamedChild(i, 1), t.NamedChild(i, 2)
			if test == syntax.NoNode {
				continue
			}
			a.addLocal(body, a.condFacts(test, true, nil))
			a.addLocal(alt, a.condFacts(test, false, nil))
		default:
			if t.IsError(i) {
				i = t.SubtreeEnd(i) - 1
			}
		}
	}
}

func (a *analysis) addLocal(n syntax.NodeID, fs []int32) {
	if n == syntax.NoNode || len(fs) == 0 {
		return
	}
	if a.local == nil {
		a.local = map[syntax.NodeID][]int32{}
	}
	a.local[n] = append(a.local[n], fs...)
}
