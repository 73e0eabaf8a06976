package peerpublish

import (
	"fmt"
	"slices"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
)

// fnView is what lateStep reads of the function holding a store.
type fnView struct {
	ix  *pymodel.Index
	t   *syntax.Tree
	fn  pymodel.FuncRef
	def syntax.NodeID
	g   *cfg.Graph    // built on demand (graph)
	r   *facts.Result // plain facts of g, for aliases; built on demand
}

// graph is fn's control flow graph, built when a candidate step asks.
func (v *fnView) graph() *cfg.Graph {
	if v.g == nil {
		v.g = cfg.New(v.t, v.def)
	}
	return v.g
}

func (v *fnView) facts() *facts.Result {
	if v.r == nil {
		v.r = facts.Analyze(v.t, v.graph(), facts.Options{})
	}
	return v.r
}

// lateStep returns the first step, in source order, that initialises the
// object stored by st after the store, on some path:
//   - under the stored name, with the name not rebound in between;
//   - under another name that aliases it there (`peer = info`, before or
//     after the store: the engine's facts say which names name the same
//     object where);
//   - in a later loop over the collection the store's loop went over (one
//     loop publishes every peer, a second prepares them), under that loop's
//     variable, with the collection not rebound in between.
func lateStep(v *fnView, st store) (step, bool) {
	if st.path != "" {
		for _, s := range pathSteps(v.t, v.def, st) {
			if s.node != st.node && reachesAfter(v.graph(), st.node, s.node, st.keyRoot) {
				return s, true
			}
		}
		return step{}, false
	}
	type cand struct {
		s     step
		ok    func() bool
		alias string
	}
	var cands []cand
	for _, s := range initSteps(v.ix, v.t, v.fn, v.def, st.obj) {
		cands = append(cands, cand{s: s, ok: func() bool { return reachesAfter(v.graph(), st.node, s.node, st.obj) }})
	}
	for _, name := range aliasNames(v.t, v.def, st.obj) {
		for _, s := range initSteps(v.ix, v.t, v.fn, v.def, name) {
			cands = append(cands, cand{s: s, alias: name, ok: func() bool {
				return reachesAfter(v.graph(), st.node, s.node, st.obj) && v.aliasAt(s.node, name, st.obj)
			}})
		}
	}
	for _, l := range laterLoops(v.t, v.def, st) {
		for _, s := range initSteps(v.ix, v.t, v.fn, v.def, l.name) {
			if !v.t.Contains(l.body, s.node) {
				continue
			}
			s.what += fmt.Sprintf(" in a later loop over %s", l.over)
			cands = append(cands, cand{s: s, ok: func() bool { return reachesAfter(v.graph(), st.node, l.iter, l.root) }})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return int(a.s.node - b.s.node) })
	set := setBefore(v.t, v.def, st.obj, st.node)
	for _, c := range cands {
		if c.s.node == st.node || !c.ok() || c.alias == "" && update(c.s, set) {
			continue
		}
		if c.alias != "" {
			c.s.what += fmt.Sprintf(" (`%s` names the same object there)", c.alias)
		}
		return c.s, true
	}
	return step{}, false
}

// aliasAt: names a and b denote the same object before node n on every
// path.
func (v *fnView) aliasAt(n syntax.NodeID, a, b string) bool {
	r := v.facts()
	return r.Holds(n, facts.Fact{Kind: facts.Alias, Path: facts.Path(a), Other: facts.Path(b)}) ||
		r.Holds(n, facts.Fact{Kind: facts.Alias, Path: facts.Path(b), Other: facts.Path(a)})
}

// aliasNames lists the names copied to or from obj by plain assignments in
// def's own scope (`peer = info`, `info = peer`), transitively, obj
// excluded: the candidates for an alias, which the facts then confirm.
func aliasNames(t *syntax.Tree, def syntax.NodeID, obj string) []string {
	var pairs [][2]string
	walkScope(t, def, func(n syntax.NodeID) {
		if t.Kind(n) != syntax.Assignment {
			return
		}
		l, r := t.Unparen(t.Field(n, syntax.FLeft)), t.Unparen(t.Field(n, syntax.FRight))
		if l != syntax.NoNode && r != syntax.NoNode && t.Kind(l) == syntax.Identifier && t.Kind(r) == syntax.Identifier {
			pairs = append(pairs, [2]string{t.Text(l), t.Text(r)})
		}
	})
	names := []string{obj}
	for i := 0; i < len(names); i++ {
		for _, p := range pairs {
			for j, x := range p {
				if x == names[i] && !slices.Contains(names, p[1-j]) {
					names = append(names, p[1-j])
				}
			}
		}
	}
	return names[1:]
}

// laterLoop is a loop after a publishing loop that goes over the same
// objects: its variable, body, iterable node and the root name of the
// collection (whose rebinding would make them other objects).
type laterLoop struct {
	name       string
	body, iter syntax.NodeID
	root       string
	over       string // for the message
}

// laterLoops finds, when st sits in the body of `for obj in C:`, the
// loops of def's own scope that come after it and iterate over C again, or
// over the values of the table itself (`self.T.values()`).
func laterLoops(t *syntax.Tree, def syntax.NodeID, st store) []laterLoop {
	first := syntax.NoNode
	for m := t.Parent(st.node); m != syntax.NoNode && m != def; m = t.Parent(m) {
		if t.Kind(m) == syntax.ForStatement {
			if l := t.Unparen(t.Field(m, syntax.FLeft)); t.Kind(l) == syntax.Identifier && t.TextIs(l, st.obj) {
				first = m
			}
			break
		}
	}
	if first == syntax.NoNode {
		return nil
	}
	coll, ok := facts.PathOf(t, t.Field(first, syntax.FRight))
	if !ok {
		return nil
	}
	var out []laterLoop
	walkScope(t, def, func(n syntax.NodeID) {
		if t.Kind(n) != syntax.ForStatement || n <= first || t.Contains(first, n) {
			return
		}
		l := t.Unparen(t.Field(n, syntax.FLeft))
		if t.Kind(l) != syntax.Identifier {
			return
		}
		it := t.Field(n, syntax.FRight)
		over, root := "", ""
		if p, ok := facts.PathOf(t, it); ok && p == coll {
			over, root = "`"+string(p)+"`", p.Root()
		} else if recv, ok := valuesOf(t, it); ok && recv == facts.Path(st.self+"."+st.table) {
			over, root = "the table's values", st.self
		} else {
			return
		}
		out = append(out, laterLoop{name: t.Text(l), body: t.Field(n, syntax.FBody), iter: it, root: root, over: over})
	})
	return out
}

// valuesOf matches `x.values()` and returns x's path.
func valuesOf(t *syntax.Tree, n syntax.NodeID) (facts.Path, bool) {
	n = t.Unparen(n)
	if t.Kind(n) != syntax.Call {
		return "", false
	}
	fn, args := t.Field(n, syntax.FFunction), t.Field(n, syntax.FArguments)
	if fn == syntax.NoNode || t.Kind(fn) != syntax.Attribute || !t.TextIs(t.Field(fn, syntax.FAttribute), "values") ||
		args == syntax.NoNode || t.NamedChild(args, 0) != syntax.NoNode {
		return "", false
	}
	return facts.PathOf(t, t.Field(fn, syntax.FObject))
}
