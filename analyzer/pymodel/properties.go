package pymodel

import (
	"strings"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Property aliases. A getter that only returns an attribute of self
// (`@property def descs(self): return self.kv_mem_descs`) makes `self.descs`
// name the same object as `self.kv_mem_descs`: facts and uses of one are
// of the other. Flow gives them as Alias facts on entry to the functions
// that read the property; the engine kills them, as any alias, when
// either side is rebound. Only `@property` counts: a cached_property keeps
// the object it first returned, whatever happens to the attribute later.

// ClassFacts returns what holds on entry to fn because of its class: the
// constructors' invariants (Invariants) and the property aliases of the
// properties fn reads, in fn's names. Like Invariants it must not be
// called from inside a component computation.
func (fl *Flow) ClassFacts(fn FuncRef) []facts.Fact {
	out := fl.Invariants(fn)
	return append(out, fl.PropertyAliases(fn)...)
}

// PropertyAliases returns, for each property of fn's self class that fn
// reads and whose getter only returns an attribute path of self, the
// alias `self.<property>` ~ `self.<path>`, in fn's names.
func (fl *Flow) PropertyAliases(fn FuncRef) []facts.Fact {
	ix := fl.ix
	if !ix.validFunc(fn) {
		return nil
	}
	self, c := ix.SelfOf(fn)
	if self == "" || !c.Valid() {
		return nil
	}
	s := ix.Summary(fn.File)
	var out []facts.Fact
	seen := map[string]bool{}
	for _, ui := range ix.funcUses(fn) {
		u := &s.Uses[ui]
		if !u.Self || u.Path == "" {
			continue
		}
		name, _, _ := strings.Cut(u.Path, ".")
		if seen[name] {
			continue
		}
		seen[name] = true
		if target := fl.getterTarget(c, name); target != "" {
			out = append(out, facts.Fact{Kind: facts.Alias,
				Path: facts.Path(self + "." + name), Other: facts.Path(self + target)})
		}
	}
	return out
}

// getterTarget is ".a.b" when the `@property` getter called name of
// instances of c only returns `self.a.b`, "" otherwise.
func (fl *Flow) getterTarget(c ClassRef, name string) string {
	ix := fl.ix
	for _, b := range ix.MRO(c) {
		if b.External() {
			continue
		}
		for _, m := range ix.Class(b.Class).Methods {
			g := FuncRef{b.Class.File, m}
			f := ix.Func(g)
			if f.Name != name {
				continue
			}
			for _, d := range f.Decorators {
				if d == "property" {
					return fl.getters.Get(g, func() string { return fl.returnedSelfPath(g) })
				}
			}
		}
	}
	return ""
}

// returnedSelfPath reads a getter's body: a docstring at most, then
// `return self.<path>` with attributes only.
func (fl *Flow) returnedSelfPath(g FuncRef) string {
	t := fl.tree(g.File)
	def := fl.ix.Func(g).Def
	if t == nil || def < 0 || int(def) >= t.Len() {
		return ""
	}
	self, _ := fl.ix.selfOf(g.File, g.Func)
	body := t.Field(def, syntax.FBody)
	if body == syntax.NoNode || self == "" {
		return ""
	}
	var stmts []syntax.NodeID
	for st := range t.NamedChildren(body) {
		if t.Kind(st) != syntax.Comment {
			stmts = append(stmts, st)
		}
	}
	if len(stmts) == 2 && t.Kind(stmts[0]) == syntax.ExpressionStatement {
		if x := t.NamedChild(stmts[0], 0); x != syntax.NoNode && t.Kind(x) == syntax.String {
			stmts = stmts[1:]
		}
	}
	if len(stmts) != 1 || t.Kind(stmts[0]) != syntax.ReturnStatement {
		return ""
	}
	v := t.NamedChild(stmts[0], 0)
	if v == syntax.NoNode {
		return ""
	}
	p, ok := facts.AttrPathOf(t, v)
	if !ok {
		return ""
	}
	rest, ok := strings.CutPrefix(p, self+".")
	if !ok || rest == "" {
		return ""
	}
	return "." + rest
}
