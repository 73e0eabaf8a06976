package readinessguard

import (
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/sendpath"
)

// guardExample says which method of c (or of its project bases), other
// than skip, already does what the message asks: `if not self.<state>:
// return ...` first thing (alone or as the first operand of an `or`):
// ", as `send_chunk` does", or ", as `send_state` does for
// `self.state_mem_descs`" when only another registration state is checked
// that way; "" when none is.
func (ck *checker) guardExample(c pymodel.ClassRef, attr string, skip pymodel.FuncRef) string {
	other := ""
	for _, b := range ck.ix.MRO(c) {
		if b.External() {
			continue
		}
		for _, m := range ck.ix.Class(b.Class).Methods {
			fn := pymodel.FuncRef{File: b.Class.File, Func: m}
			if fn == skip {
				continue
			}
			checked := ck.earlyReturnChecks(fn)
			for _, a := range checked {
				if a == attr {
					return ", as `" + ck.ix.Func(fn).Name + "` does"
				}
				if other == "" {
					if _, ok := ck.state(c, a); ok {
						other = ", as `" + ck.ix.Func(fn).Name + "` does for `self." + a + "`"
					}
				}
			}
		}
	}
	return other
}

// earlyReturnChecks lists the self attributes fn tests with `if not
// self.<attr>[ or ...]:` followed by a return, before any other use.
func (ck *checker) earlyReturnChecks(fn pymodel.FuncRef) []string {
	f := ck.paths.File(fn.File)
	if f == nil || f.Tree == nil {
		return nil
	}
	t := f.Tree
	def := ck.ix.Func(fn).Def
	if def < 0 || int(def) >= t.Len() {
		return nil
	}
	self := sendpath.SelfName(ck.ix, fn)
	body := t.Field(def, syntax.FBody)
	if body == syntax.NoNode || self == "" {
		return nil
	}
	// Only a check that comes first counts as an example: top-level
	// statements of the body, before anything else mentions the attribute.
	var out []string
	mentioned := map[string]bool{}
	for n := range t.NamedChildren(body) {
		if t.Kind(n) == syntax.IfStatement && returnsLast(t, t.Field(n, syntax.FConsequence)) {
			if attr, ok := notSelfAttr(t, t.Field(n, syntax.FCondition), self); ok && !mentioned[attr] {
				out = append(out, attr)
			}
		}
		for m := n; m < t.SubtreeEnd(n); m++ {
			if t.Kind(m) == syntax.Attribute {
				if p, ok := facts.PathOf(t, m); ok {
					if attr, ok := selfAttr(p, self); ok {
						mentioned[attr] = true
					}
				}
			}
		}
	}
	return out
}

// notSelfAttr matches `not self.<attr>`, alone or as the first operand of
// an `or`.
func notSelfAttr(t *syntax.Tree, cond syntax.NodeID, self string) (string, bool) {
	cond = t.Unparen(cond)
	for cond != syntax.NoNode && t.Kind(cond) == syntax.BooleanOperator && t.Kind(t.Field(cond, syntax.FOperator)) == syntax.KwOr {
		cond = t.Unparen(t.Field(cond, syntax.FLeft))
	}
	if cond == syntax.NoNode || t.Kind(cond) != syntax.NotOperator {
		return "", false
	}
	p, ok := facts.PathOf(t, t.Field(cond, syntax.FArgument))
	if !ok {
		return "", false
	}
	return selfAttr(p, self)
}

// returnsLast: the block's last statement is a return.
func returnsLast(t *syntax.Tree, block syntax.NodeID) bool {
	last := syntax.NoNode
	for c := range t.NamedChildren(block) {
		last = c
	}
	return last != syntax.NoNode && t.Kind(last) == syntax.ReturnStatement
}
