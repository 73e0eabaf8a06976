package facts

import "github.com/sglint/sglint/analyzer/syntax"

// Table shapes: what lookups and loops over a dict say about its keys.
//   - `t.get(k)` tested not None (or truthy) found k in t, whether or not
//     the result was bound to a name (`if t.get(k) is None: continue`);
//   - `k in t.keys()` is `k in t`;
//   - a loop over t's keys (`for k in t`, `t.keys()`, `t.items()`, or a
//     copy of them: `list(t)`, `sorted(t.items())`) binds keys that are in
//     t. A live dict cannot change size while it is iterated (Python
//     raises), but a copy can: for a copy the loop body must remove no key
//     other than the one it is on.

// getCall matches `t.get(k)` and `t.get(k, d)` with positional arguments;
// dflt is NoNode without a default.
func getCall(t *syntax.Tree, n syntax.NodeID) (table, key, dflt syntax.NodeID, ok bool) {
	n = t.Unparen(n)
	if n == syntax.NoNode || t.Kind(n) != syntax.Call {
		return syntax.NoNode, syntax.NoNode, syntax.NoNode, false
	}
	fn, args := t.Field(n, syntax.FFunction), t.Field(n, syntax.FArguments)
	if fn == syntax.NoNode || args == syntax.NoNode || t.Kind(fn) != syntax.Attribute ||
		!t.TextIs(t.Field(fn, syntax.FAttribute), "get") || t.Kind(args) != syntax.ArgumentList {
		return syntax.NoNode, syntax.NoNode, syntax.NoNode, false
	}
	key, dflt = syntax.NoNode, syntax.NoNode
	i := 0
	for c := range t.NamedChildren(args) {
		switch t.Kind(c) {
		case syntax.KeywordArgument, syntax.ListSplat, syntax.DictionarySplat, syntax.ParenthesizedListSplat:
			return syntax.NoNode, syntax.NoNode, syntax.NoNode, false
		}
		switch i {
		case 0:
			key = c
		case 1:
			dflt = c
		default:
			return syntax.NoNode, syntax.NoNode, syntax.NoNode, false
		}
		i++
	}
	if key == syntax.NoNode {
		return syntax.NoNode, syntax.NoNode, syntax.NoNode, false
	}
	return t.Field(fn, syntax.FObject), key, dflt, true
}

// getFound: the result of `t.get(k[, d])` (n) is not None (truthy when
// truthy is set) only if k is in t: the default is absent or None (or,
// for a truth test, a falsy literal).
func (a *analysis) getFound(n syntax.NodeID, truthy bool, dst []int32) []int32 {
	t := a.t
	table, key, dflt, ok := getCall(t, n)
	if !ok {
		return dst
	}
	if dflt != syntax.NoNode {
		d := t.Unparen(dflt)
		empty, known := false, false
		switch t.Kind(d) {
		case syntax.None:
			empty, known = true, true
		case syntax.False:
			empty, known = truthy, true
		case syntax.Integer:
			empty, known = truthy && t.TextIs(d, "0"), true
		case syntax.List, syntax.Dictionary, syntax.Set, syntax.Tuple, syntax.String:
			if e, k := literalEmpty(t, d); k {
				empty, known = truthy && e, true
			}
		}
		if !known || !empty {
			return dst
		}
	}
	tp, ok := a.paths.ofNode(t, table, false)
	if !ok {
		return dst
	}
	kp, ok := a.paths.ofNode(t, key, true)
	if !ok {
		return dst
	}
	return a.appendFact(dst, ifact{kind: In, path: tp, key: kp, other: noPath})
}

// methodCall matches `recv.name()` with no arguments and returns recv.
func methodCall(t *syntax.Tree, n syntax.NodeID, name string) (syntax.NodeID, bool) {
	n = t.Unparen(n)
	if n == syntax.NoNode || t.Kind(n) != syntax.Call {
		return syntax.NoNode, false
	}
	fn, args := t.Field(n, syntax.FFunction), t.Field(n, syntax.FArguments)
	if fn == syntax.NoNode || t.Kind(fn) != syntax.Attribute || !t.TextIs(t.Field(fn, syntax.FAttribute), name) ||
		args == syntax.NoNode || t.Kind(args) != syntax.ArgumentList || t.NamedChild(args, 0) != syntax.NoNode {
		return syntax.NoNode, false
	}
	return t.Field(fn, syntax.FObject), true
}

// keysOf sees `t.keys()` as t (a membership test on it is one on t).
func keysOf(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	if recv, ok := methodCall(t, n, "keys"); ok {
		return recv
	}
	return n
}

// literalMembers: n is a tuple, list or set display of literals none of
// which is None, so that `x in n` proves x is not None.
func literalMembers(t *syntax.Tree, n syntax.NodeID) bool {
	n = t.Unparen(n)
	switch t.Kind(n) {
	case syntax.Tuple, syntax.List, syntax.Set:
	default:
		return false
	}
	any := false
	for c := range t.NamedChildren(n) {
		if t.Kind(c) == syntax.Comment {
			continue
		}
		if !notNoneLiteral(t, c) {
			return false
		}
		any = true
	}
	return any
}

// copyCalls make a list of an iterable's items before a loop runs.
var copyCalls = []string{"list", "tuple", "sorted", "set", "frozenset"}

// keyIterable reads a loop's iterable as the keys of a table: the table
// node, whether the loop yields (key, value) pairs, and whether it runs
// over a copy.
func keyIterable(t *syntax.Tree, it syntax.NodeID) (table syntax.NodeID, items, copied bool) {
	for _, name := range copyCalls {
		if args, ok := builtinCall(t, it, name); ok && len(args) == 1 {
			it, copied = args[0], true
			break
		}
	}
	if recv, ok := methodCall(t, it, "keys"); ok {
		return recv, false, copied
	}
	if recv, ok := methodCall(t, it, "items"); ok {
		return recv, true, copied
	}
	return it, false, copied
}

// loopKey is the node a loop target binds the key to: the target itself,
// or for a loop over items the first name of its (key, value) pattern;
// false for a target that keeps the pair whole.
func loopKey(t *syntax.Tree, target syntax.NodeID, items bool) (syntax.NodeID, bool) {
	key := t.Unparen(target)
	if !items {
		return key, true
	}
	switch t.Kind(key) {
	case syntax.PatternList, syntax.TuplePattern, syntax.ListPattern, syntax.Tuple, syntax.List:
		return t.Unparen(t.NamedChild(key, 0)), true
	}
	return syntax.NoNode, false
}

// loopKeys learns, for loop target target over iterable it, that the key
// it binds is in the table iterated (see keyIterable). scope is the code
// that runs between two bindings (the loop body, the comprehension).
func (a *analysis) loopKeys(target, it, scope syntax.NodeID) {
	t := a.t
	table, items, copied := keyIterable(t, it)
	key, ok := loopKey(t, target, items)
	if !ok {
		return
	}
	tp, ok := a.paths.ofNode(t, table, false)
	if !ok {
		return
	}
	kp, ok := a.paths.ofNode(t, key, false)
	if !ok || a.paths.dependsOn(tp, kp) {
		return
	}
	if copied && a.removesOtherKeys(scope, Path(a.paths.str(tp)), Path(a.paths.str(kp))) {
		return
	}
	a.learn(ifact{kind: In, path: tp, key: kp, other: noPath})
}

// removesOtherKeys reports whether code in scope (not in nested
// functions) may remove from table a key other than key, or rebind it:
// `del table[j]`, `table.pop(j)`, clear, popitem, an assignment to it or a
// prefix, or a call the hooks say rebinds or empties it.
func (a *analysis) removesOtherKeys(scope syntax.NodeID, table, key Path) bool {
	t := a.t
	isTable := func(n syntax.NodeID) bool {
		p, ok := PathOf(t, n)
		return ok && table.HasPrefix(p)
	}
	sameKey := func(n syntax.NodeID) bool {
		p, ok := PathOf(t, n)
		return ok && p == key
	}
	end := t.SubtreeEnd(scope)
	for i := scope; i < end; i++ {
		switch t.Kind(i) {
		case syntax.Lambda, syntax.FunctionDefinition, syntax.ClassDefinition:
			i = t.SubtreeEnd(i) - 1
		case syntax.DeleteStatement:
			for x := range t.NamedChildren(i) {
				targets := []syntax.NodeID{x}
				if t.Kind(x) == syntax.ExpressionList {
					targets = targets[:0]
					for y := range t.NamedChildren(x) {
						targets = append(targets, y)
					}
				}
				for _, y := range targets {
					y = t.Unparen(y)
					if t.Kind(y) == syntax.Subscript && isTable(t.Field(y, syntax.FValue)) {
						if !sameKey(subscriptKey(t, y)) {
							return true
						}
					} else if isTable(y) {
						return true // del table
					}
				}
			}
		case syntax.Assignment, syntax.AugmentedAssignment:
			if isTable(t.Field(i, syntax.FLeft)) {
				return true
			}
		case syntax.NamedExpression:
			if isTable(t.Field(i, syntax.FName)) {
				return true
			}
		case syntax.Call:
			if fn := t.Field(i, syntax.FFunction); fn != syntax.NoNode && t.Kind(fn) == syntax.Attribute && isTable(t.Field(fn, syntax.FObject)) {
				switch t.Text(t.Field(fn, syntax.FAttribute)) {
				case "pop":
					args := t.Field(i, syntax.FArguments)
					if args == syntax.NoNode || !sameKey(t.NamedChild(args, 0)) {
						return true
					}
				case "popitem", "clear", "remove", "discard":
					return true
				}
			}
			if a.opts.CallKills != nil {
				for _, p := range a.opts.CallKills(i) {
					if table.HasPrefix(p) {
						return true
					}
				}
			}
		}
	}
	return false
}

// keysValue: `p = v` with v a list (tuple, set) of keys of a table t:
// `list(t)`, `sorted(t.keys())`, `[k for k in t if ...]`, `[k for k, _ in
// t.items() if ...]`. It learns that p holds keys of t (a loop over p then
// binds keys that are in t, see derive).
func (a *analysis) keysValue(p pathID, v syntax.NodeID) {
	t := a.t
	table := syntax.NoNode
	switch t.Kind(v) {
	case syntax.Call:
		tb, items, copied := keyIterable(t, v)
		if copied && !items {
			table = tb
		}
	case syntax.ListComprehension, syntax.SetComprehension:
		elem := t.Field(v, syntax.FBody)
		var clause syntax.NodeID = syntax.NoNode
		for c := range t.NamedChildren(v) {
			switch t.Kind(c) {
			case syntax.ForInClause:
				if clause != syntax.NoNode {
					return // nested loops: the elements are not the keys
				}
				clause = c
			}
		}
		if clause == syntax.NoNode || elem == syntax.NoNode || t.Kind(elem) != syntax.Identifier {
			return
		}
		tb, items, _ := keyIterable(t, t.Field(clause, syntax.FRight))
		key, ok := loopKey(t, t.Field(clause, syntax.FLeft), items)
		if !ok {
			return
		}
		if key != syntax.NoNode && t.Kind(key) == syntax.Identifier && t.TextIs(key, t.Text(elem)) {
			table = tb
		}
	}
	if table == syntax.NoNode {
		return
	}
	tp, ok := a.paths.ofNode(t, table, false)
	if !ok || tp == p || a.paths.dependsOn(tp, p) || a.paths.dependsOn(p, tp) {
		return
	}
	a.learn(ifact{kind: KeysOf, path: p, key: noPath, other: tp})
}

// loopKeyRemoval reports a key node x that is the variable of an enclosing
// loop (in the same scope) over a path: `for k in ks: del t[k]` removes
// the key the loop is on (see opRemoveKey).
func loopKeyRemoval(t *syntax.Tree, x syntax.NodeID) bool {
	x = t.Unparen(x)
	if x == syntax.NoNode || t.Kind(x) != syntax.Identifier {
		return false
	}
	for m := t.Parent(x); m != syntax.NoNode; m = t.Parent(m) {
		switch t.Kind(m) {
		case syntax.FunctionDefinition, syntax.Lambda, syntax.ClassDefinition:
			return false
		case syntax.ForStatement:
			left := t.Unparen(t.Field(m, syntax.FLeft))
			if t.Kind(left) == syntax.Identifier && t.TextIs(left, t.Text(x)) {
				r := t.Unparen(t.Field(m, syntax.FRight))
				return t.Kind(r) == syntax.Identifier || t.Kind(r) == syntax.Attribute
			}
		}
	}
	return false
}
