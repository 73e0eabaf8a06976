package peerpublish

import (
	"fmt"
	"strings"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
)

// store is a by-key store of a named object into a table of self:
// `self.T[k] = obj`.
type store struct {
	node  syntax.NodeID // the assignment, or the setdefault call
	table string        // T
	obj   string        // obj: the stored name, or the entry's text for a path store
	self  string        // the name of self where it is made
	// path is set for a store of a fresh object (`self.T[k] = make()`),
	// later initialised through the table itself (`self.T[k].x = v`):
	// the entry's path, and the root name of its key, whose rebinding
	// makes it another entry.
	path    facts.Path
	keyRoot string
}

// storeOf reads the store a MutSetItem use of `self.T` belongs to; false
// when the stored value is not a plain name (a fresh object cannot be
// initialised later under a name).
func storeOf(t *syntax.Tree, u *pymodel.AttrUse, self string) (store, bool) {
	if u.Op == pymodel.MutSetdefault {
		return setdefaultOf(t, u, self)
	}
	attr := u.At.Node
	sub := t.Parent(attr)
	if sub == syntax.NoNode || t.Kind(sub) != syntax.Subscript || t.FieldOf(attr) != syntax.FValue {
		return store{}, false
	}
	asg := t.Parent(sub)
	if asg == syntax.NoNode || t.Kind(asg) != syntax.Assignment || t.FieldOf(sub) != syntax.FLeft {
		return store{}, false
	}
	v := t.Unparen(t.Field(asg, syntax.FRight))
	if v == syntax.NoNode || t.TextIs(v, self) {
		return store{}, false
	}
	switch t.Kind(v) {
	case syntax.Identifier:
		return store{node: asg, table: u.Path, obj: t.Text(v), self: self}, true
	case syntax.Call:
		// A fresh object, initialised later through the table entry.
		if !freshObject(t, v) {
			return store{}, false
		}
		p, ok := facts.PathOf(t, sub)
		key := t.Field(sub, syntax.FSubscript)
		if !ok || key == syntax.NoNode {
			return store{}, false
		}
		return store{node: asg, table: u.Path, obj: compact(t.Text(sub)), self: self, path: p, keyRoot: rootName(t, key)}, true
	}
	return store{}, false
}

// freshObject reports a call that builds a peer object: not a container
// (`dict()`, `list()`, `defaultdict(list)`), which a table of tables
// fills key by key as registrations arrive, by design.
func freshObject(t *syntax.Tree, v syntax.NodeID) bool {
	if t.Kind(v) != syntax.Call {
		return false
	}
	switch pyname.Last(compact(t.Text(t.Field(v, syntax.FFunction)))) {
	case "dict", "list", "set", "tuple", "defaultdict", "OrderedDict", "deque", "Counter":
		return false
	}
	return true
}

// setdefaultOf reads `self.T.setdefault(k, obj)`, and `x =
// self.T.setdefault(k, make())`, which publishes the fresh object and
// binds it to x: the object initialised later is obj, or x.
func setdefaultOf(t *syntax.Tree, u *pymodel.AttrUse, self string) (store, bool) {
	call := t.Parent(u.At.Node) // At is `self.T.setdefault`
	if call == syntax.NoNode || t.Kind(call) != syntax.Call {
		return store{}, false
	}
	args := t.Field(call, syntax.FArguments)
	if t.NamedChild(args, 1) == syntax.NoNode || t.NamedChild(args, 2) != syntax.NoNode {
		return store{}, false
	}
	v := t.Unparen(t.NamedChild(args, 1))
	if t.Kind(v) == syntax.Identifier && !t.TextIs(v, self) {
		return store{node: call, table: u.Path, obj: t.Text(v), self: self}, true
	}
	if !freshObject(t, v) {
		return store{}, false // an empty container, filled over time by design
	}
	if asg := t.Parent(call); asg != syntax.NoNode && t.Kind(asg) == syntax.Assignment && t.FieldOf(call) == syntax.FRight {
		if l := t.Unparen(t.Field(asg, syntax.FLeft)); t.Kind(l) == syntax.Identifier {
			return store{node: asg, table: u.Path, obj: t.Text(l), self: self}, true
		}
	}
	return store{}, false
}

// pathSteps lists, in source order, the attribute stores of def's own
// scope on the table entry st.path (`self.T[k].x = v`).
func pathSteps(t *syntax.Tree, def syntax.NodeID, st store) []step {
	var out []step
	walkScope(t, def, func(n syntax.NodeID) {
		switch t.Kind(n) {
		case syntax.Assignment, syntax.AugmentedAssignment:
			for _, target := range targets(t, t.Field(n, syntax.FLeft)) {
				target = t.Unparen(target)
				if t.Kind(target) != syntax.Attribute {
					continue
				}
				if p, ok := facts.PathOf(t, t.Field(target, syntax.FObject)); ok && p == st.path {
					out = append(out, step{node: n, what: fmt.Sprintf("`%s` is still assigned", compact(t.Text(target)))})
				}
			}
		}
	})
	return out
}

// fillMethods put something into a container in place.
var fillMethods = map[string]bool{
	"append": true, "appendleft": true, "extend": true, "extendleft": true, "insert": true,
	"add": true, "update": true, "setdefault": true, "__setitem__": true,
}

// step is something a function does that initialises an object further:
// an attribute store on it, a call that stores attributes on the object
// passed to it, or a method call on it that stores attributes on self.
type step struct {
	node syntax.NodeID
	// what describes the step for a message: "`layout.ready` is assigned",
	// "`self._prepare(layout)` stores `dest_kind`, `segments` on it".
	what string
	// writes are the paths the step writes, relative to the object
	// (`ready`, `receiver.state`); nil when unknown. fill: it fills a
	// container the object holds.
	writes []string
	fill   bool
}

// initSteps lists, in source order, the steps of function fn (whose
// definition is def in tree t) that initialise the object named obj.
func initSteps(ix *pymodel.Index, t *syntax.Tree, fn pymodel.FuncRef, def syntax.NodeID, obj string) []step {
	var out []step
	walkScope(t, def, func(n syntax.NodeID) {
		switch t.Kind(n) {
		case syntax.Assignment, syntax.AugmentedAssignment:
			for _, target := range targets(t, t.Field(n, syntax.FLeft)) {
				if isAccess(t, target) && rootName(t, target) == obj {
					s := step{node: n, what: fmt.Sprintf("`%s` is still assigned", compact(t.Text(target)))}
					if p, ok := facts.AttrPathOf(t, target); ok && t.Kind(n) == syntax.Assignment {
						if rest, ok := under(p, obj); ok && rest != "" {
							s.writes = []string{rest}
						}
					}
					out = append(out, s)
				}
			}
		}
	})
	for _, site := range ix.CallsIn(fn) {
		if s, ok := callStep(ix, t, site, fn, obj); ok {
			out = append(out, s)
		}
	}
	sortSteps(out)
	return out
}

// callStep reports a call that initialises obj: obj (or one of its
// attributes) is an argument the callee writes on, or the receiver of a
// method that writes on its self.
func callStep(ix *pymodel.Index, t *syntax.Tree, site pymodel.CallSite, fn pymodel.FuncRef, obj string) (step, bool) {
	call := ix.Call(site)
	callText := compact(t.Text(call.At.Node))
	if len(callText) > 60 {
		callText = compact(t.Text(t.Field(call.At.Node, syntax.FFunction))) + "(...)"
	}
	args := ix.Args(site)
	self, _ := ix.SelfOf(fn)
	resolved := false
	for _, cal := range ix.Callees(site) {
		if !cal.Func.Valid() || cal.Virtual {
			continue
		}
		resolved = true
		sum := ix.FuncSummary(cal.Func)
		bind := ix.BindArgs(site, cal)
		for ai, a := range args {
			rest, ok := under(a.Path, obj)
			if !ok || bind[ai] < 0 {
				continue
			}
			if rest != "" && call.Kind == pymodel.RefAttr && call.Recv != self {
				// A part of obj handed to another object's method
				// (`self.kv_manager.abort_all(req.receiver)`): that object
				// updates the part for its own ends, it does not build obj.
				continue
			}
			if ws := sum.WritesOn(bind[ai]); len(ws) > 0 {
				return step{node: call.At.Node, what: fmt.Sprintf("`%s` still stores %s on it", callText, pathList(rest, ws)),
					writes: joinPaths(rest, ws)}, true
			}
		}
		if call.Kind == pymodel.RefAttr && len(sum.SelfWrites) > 0 && ix.Func(cal.Func).Kind == pymodel.Method {
			if rest, ok := under(call.Recv, obj); ok {
				return step{node: call.At.Node, what: fmt.Sprintf("`%s` still stores %s on it", callText, pathList(rest, sum.SelfWrites)),
					writes: joinPaths(rest, sum.SelfWrites)}, true
			}
		}
	}
	if resolved || call.Kind != pymodel.RefAttr {
		return step{}, false
	}
	// A container on the object filled in place: `obj.handles.append(h)`,
	// `obj.segments.update(s)`.
	if rest, ok := under(call.Recv, obj); ok && fillMethods[call.Name] {
		what := "`" + callText + "` still fills it"
		if rest != "" {
			what = fmt.Sprintf("`%s` still fills `%s`", callText, rest)
		}
		return step{node: call.At.Node, what: what, fill: true}, true
	}
	if call.Recv != obj {
		return step{}, false
	}
	// obj's class is unknown: the project methods of that name whose class
	// has every attribute this function uses on obj are the candidates;
	// all of them must initialise their self.
	writes := duckMethodWrites(ix, t, fn, obj, call.Name)
	if len(writes) == 0 {
		return step{}, false
	}
	return step{node: call.At.Node, what: fmt.Sprintf("`%s` still stores %s on it", callText, pathList("", writes))}, true
}

// duckMethodWrites returns the self writes of method name on obj when every
// candidate class (a project class defining name and every attribute fn
// uses on obj) has one that writes its self; nil otherwise.
func duckMethodWrites(ix *pymodel.Index, t *syntax.Tree, fn pymodel.FuncRef, obj, name string) []string {
	used := attrsUsedOn(t, ix.Func(fn).Def, obj)
	var writes []string
	for _, m := range ix.MethodsNamed(name) {
		cls := pymodel.ClassRef{File: m.File, Class: ix.Func(m).Class}
		if !ix.HasAttrs(cls, used) {
			continue
		}
		ws := ix.FuncSummary(m).SelfWrites
		if len(ws) == 0 {
			return nil
		}
		if writes == nil {
			writes = ws
		}
	}
	return writes
}

// attrsUsedOn lists the attribute names fn's body reads or writes on obj.
func attrsUsedOn(t *syntax.Tree, def syntax.NodeID, obj string) []string {
	seen := map[string]bool{}
	var out []string
	walkScope(t, def, func(n syntax.NodeID) {
		if t.Kind(n) != syntax.Attribute {
			return
		}
		o, a := t.Unparen(t.Field(n, syntax.FObject)), t.Field(n, syntax.FAttribute)
		if o == syntax.NoNode || a == syntax.NoNode || t.Kind(o) != syntax.Identifier || !t.TextIs(o, obj) {
			return
		}
		if name := t.Text(a); !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	})
	return out
}

// under reports whether dotted path p is obj or an attribute path of it,
// and returns the part after obj ("" for obj itself).
func under(p, obj string) (string, bool) {
	if p == obj {
		return "", true
	}
	if strings.HasPrefix(p, obj+".") {
		return p[len(obj)+1:], true
	}
	return "", false
}

// pathList formats written paths for a message: "`dest_kind`, `segments`",
// at most three, each under prefix.
func pathList(prefix string, paths []string) string {
	var parts []string
	for _, p := range paths {
		switch {
		case prefix != "" && p != "":
			p = prefix + "." + p
		case prefix != "":
			p = prefix
		case p == "":
			continue // the object itself mutated: no attribute to name
		}
		parts = append(parts, "`"+p+"`")
	}
	if len(parts) == 0 {
		return "state"
	}
	if len(parts) > 3 {
		parts = append(parts[:3], "...")
	}
	return strings.Join(parts, ", ")
}

// targets flattens assignment targets: `a, (b.c, d[0]) = ...`.
func targets(t *syntax.Tree, n syntax.NodeID) []syntax.NodeID {
	n = t.Unparen(n)
	if n == syntax.NoNode {
		return nil
	}
	switch t.Kind(n) {
	case syntax.PatternList, syntax.TuplePattern, syntax.ListPattern, syntax.Tuple, syntax.List, syntax.ExpressionList:
		var out []syntax.NodeID
		for c := range t.NamedChildren(n) {
			out = append(out, targets(t, c)...)
		}
		return out
	case syntax.ListSplatPattern, syntax.ListSplat:
		return targets(t, t.NamedChild(n, 0))
	}
	return []syntax.NodeID{n}
}

// isAccess: an attribute or subscript expression (a store into an object,
// not a rebinding of a name).
func isAccess(t *syntax.Tree, n syntax.NodeID) bool {
	k := t.Kind(t.Unparen(n))
	return k == syntax.Attribute || k == syntax.Subscript
}

// rootName is the name an attribute/subscript chain starts from, "" when
// it starts from another expression.
func rootName(t *syntax.Tree, n syntax.NodeID) string {
	for i := 0; i < 1000; i++ {
		n = t.Unparen(n)
		if n == syntax.NoNode {
			return ""
		}
		switch t.Kind(n) {
		case syntax.Identifier:
			return t.Text(n)
		case syntax.Attribute:
			n = t.Field(n, syntax.FObject)
		case syntax.Subscript:
			n = t.Field(n, syntax.FValue)
		default:
			return ""
		}
	}
	return ""
}

// walkScope calls visit on every node of def's body in preorder, without
// descending into nested functions, lambdas and classes (other scopes) or
// ERROR nodes.
func walkScope(t *syntax.Tree, def syntax.NodeID, visit func(syntax.NodeID)) {
	body := t.Field(def, syntax.FBody)
	if body == syntax.NoNode {
		return
	}
	end := t.SubtreeEnd(body)
	for n := body; n < end; n++ {
		if t.IsError(n) {
			n = t.SubtreeEnd(n) - 1
			continue
		}
		if k := t.Kind(n); n != body && (k == syntax.FunctionDefinition || k == syntax.Lambda || k == syntax.ClassDefinition) {
			n = t.SubtreeEnd(n) - 1
			continue
		}
		visit(n)
	}
}

func sortSteps(s []step) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].node < s[j-1].node; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// compact squeezes whitespace runs (multi-line calls) into one space.
func compact(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// bindsName reports whether evaluating n (a block node of a graph) may
// rebind name: an assignment or walrus to it, a loop target, an `as` name.
func bindsName(t *syntax.Tree, n syntax.NodeID, name string) bool {
	if p := t.Parent(n); p != syntax.NoNode && t.FieldOf(n) == syntax.FLeft &&
		(t.Kind(p) == syntax.ForStatement || t.Kind(p) == syntax.ForInClause) {
		return mentions(t, n, name)
	}
	found := false
	end := t.SubtreeEnd(n)
	for m := n; m < end && !found; m++ {
		switch t.Kind(m) {
		case syntax.FunctionDefinition, syntax.ClassDefinition:
			// A def or class statement binds its own name.
			found = t.TextIs(t.Field(m, syntax.FName), name)
			m = t.SubtreeEnd(m) - 1
		case syntax.Lambda:
			m = t.SubtreeEnd(m) - 1
		case syntax.Assignment, syntax.AugmentedAssignment:
			for _, target := range targets(t, t.Field(m, syntax.FLeft)) {
				if k := t.Kind(target); k == syntax.Identifier && t.TextIs(target, name) {
					found = true
				}
			}
		case syntax.NamedExpression:
			found = t.TextIs(t.Field(m, syntax.FName), name)
		case syntax.AsPattern, syntax.ExceptClause, syntax.WithItem:
			found = mentionsAlias(t, m, name)
		case syntax.ForStatement, syntax.ForInClause:
			found = mentions(t, t.Field(m, syntax.FLeft), name)
		}
	}
	return found
}

// mentions reports an identifier name anywhere in n's subtree.
func mentions(t *syntax.Tree, n syntax.NodeID, name string) bool {
	if n == syntax.NoNode {
		return false
	}
	end := t.SubtreeEnd(n)
	for m := n; m < end; m++ {
		if t.Kind(m) == syntax.Identifier && t.TextIs(m, name) {
			return true
		}
	}
	return false
}

// mentionsAlias: an `as name` in an except clause, with item or pattern.
func mentionsAlias(t *syntax.Tree, n syntax.NodeID, name string) bool {
	if a := t.Field(n, syntax.FAlias); a != syntax.NoNode {
		return mentions(t, a, name)
	}
	return false
}

// reachesAfter reports whether step node to can be evaluated after store
// node from on some path of g that does not rebind obj in between.
func reachesAfter(g *cfg.Graph, from, to syntax.NodeID, obj string) bool {
	t := g.Tree
	targets := map[cfg.BlockID][]int32{}
	for _, s := range g.Locate(to) {
		targets[s.Block] = append(targets[s.Block], s.Index)
	}
	if len(targets) == 0 {
		return false
	}
	seen := map[cfg.BlockID]bool{}
	var queue []cfg.BlockID
	// follow scans block b's nodes from index i on: true when it meets the
	// step; otherwise it queues the successors unless a rebinding stops it.
	follow := func(b cfg.BlockID, i int32) bool {
		nodes := g.Blocks[b].Nodes
		stopped := false
		for ; int(i) <= len(nodes); i++ {
			for _, ti := range targets[b] {
				if ti == i {
					return true
				}
			}
			if int(i) < len(nodes) && bindsName(t, nodes[i], obj) {
				stopped = true
				break
			}
		}
		for _, e := range g.Succs(b) {
			// An implicit exception may leave before the rebinding.
			if (!stopped || e.Kind == cfg.Exception) && !seen[e.To] {
				if e.Cond != syntax.NoNode && e.Value && t.Kind(e.Cond) == syntax.ForStatement &&
					mentions(t, t.Field(e.Cond, syntax.FLeft), obj) {
					continue // the next iteration binds obj anew
				}
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
		return false
	}
	for _, s := range g.Locate(from) {
		if !g.Reachable(s.Block) {
			continue
		}
		if follow(s.Block, s.Index+1) {
			return true
		}
	}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		if follow(b, 0) {
			return true
		}
	}
	return false
}
