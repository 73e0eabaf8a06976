package kvfail

import (
	"strings"

	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
)

// ExhaustiveElse reports a raise in the else clause of an if chain that
// already compared one subject with every constant of a project class
// (`if poll == KVPoll.Failed: ... elif poll in [KVPoll.Success, ...]: ...
// else: raise ValueError(...)`): no value the subject takes reaches it.
// A chain that misses a constant (the decode handshake loop that never
// expected Success) leaves the raise reachable.
func ExhaustiveElse(ix *pymodel.Index, fn pymodel.FuncRef, t *syntax.Tree, raise syntax.NodeID) bool {
	block := t.Parent(raise)
	els := t.Parent(block)
	if block == syntax.NoNode || els == syntax.NoNode || t.Kind(els) != syntax.ElseClause {
		return false
	}
	stmt := t.Parent(els)
	if stmt == syntax.NoNode || t.Kind(stmt) != syntax.IfStatement {
		return false
	}
	tests := []syntax.NodeID{t.Field(stmt, syntax.FCondition)}
	for c := range t.NamedChildren(stmt) {
		if t.Kind(c) == syntax.ElifClause {
			tests = append(tests, t.Field(c, syntax.FCondition))
		}
	}
	// Each test covers some constants of some subjects; the chain's
	// subject is one every test compares.
	var common map[subjectClass][]string
	for i, test := range tests {
		cover := constantTests(t, test)
		if i == 0 {
			common = cover
			continue
		}
		for k := range common {
			if ns, ok := cover[k]; ok {
				common[k] = append(common[k], ns...)
			} else {
				delete(common, k)
			}
		}
	}
	if len(common) != 1 {
		return false
	}
	var subject subjectClass
	covered := map[string]bool{}
	for k, ns := range common {
		subject = k
		for _, n := range ns {
			covered[n] = true
		}
	}
	class := subject.class
	sym := ix.Resolve(fn.File, fn.Func, class)
	if sym.Kind != pymodel.SymClass {
		return false
	}
	members := 0
	for _, f := range ix.Class(sym.Class).Fields {
		if f.ClassVar || !f.HasValue || f.Value != pymodel.ValueLiteral {
			continue
		}
		members++
		if !covered[f.Name] {
			return false
		}
	}
	return members > 0
}

// subjectClass is a subject compared with the constants of a class.
type subjectClass struct{ subject, class string }

// constantTests reads a test into the constants it covers, by subject and
// class: `x == C.A` (either side), `x in [C.A, C.B]`, and an `or` of
// such tests (the branch takes every value each operand names; other
// operands only add cases).
func constantTests(t *syntax.Tree, test syntax.NodeID) map[subjectClass][]string {
	test = t.Unparen(test)
	out := map[subjectClass][]string{}
	if t.Kind(test) == syntax.BooleanOperator && t.Kind(t.Field(test, syntax.FOperator)) == syntax.KwOr {
		for _, side := range []syntax.NodeID{t.Field(test, syntax.FLeft), t.Field(test, syntax.FRight)} {
			for k, ns := range constantTests(t, side) {
				out[k] = append(out[k], ns...)
			}
		}
		return out
	}
	if s, c, ns, ok := constantTest(t, test); ok {
		out[subjectClass{s, c}] = ns
	}
	return out
}

// constantTest reads `x == C.A` (either side) or `x in [C.A, C.B]` (a
// list, tuple or set of one class's attributes): the subject's text, the
// class's and the attribute names.
func constantTest(t *syntax.Tree, test syntax.NodeID) (subject, class string, names []string, ok bool) {
	if t.Kind(test) != syntax.ComparisonOperator {
		return "", "", nil, false
	}
	var ops []string
	for o := range t.FieldAll(test, syntax.FOperators) {
		ops = append(ops, strings.Join(strings.Fields(t.Text(o)), " "))
	}
	l, r := t.Unparen(t.NamedChild(test, 0)), t.Unparen(t.NamedChild(test, 1))
	if len(ops) != 1 || l == syntax.NoNode || r == syntax.NoNode {
		return "", "", nil, false
	}
	constant := func(n syntax.NodeID) (string, string, bool) {
		if t.Kind(n) != syntax.Attribute {
			return "", "", false
		}
		obj := t.Field(n, syntax.FObject)
		if t.Kind(obj) != syntax.Identifier && t.Kind(obj) != syntax.Attribute {
			return "", "", false
		}
		return t.Text(obj), t.Text(t.Field(n, syntax.FAttribute)), true
	}
	switch ops[0] {
	case "==":
		if c, a, ok := constant(r); ok {
			return t.Text(l), c, []string{a}, true
		}
		if c, a, ok := constant(l); ok {
			return t.Text(r), c, []string{a}, true
		}
	case "in":
		switch t.Kind(r) {
		case syntax.List, syntax.Tuple, syntax.Set:
		default:
			return "", "", nil, false
		}
		for e := range t.NamedChildren(r) {
			c, a, ok := constant(t.Unparen(e))
			if !ok || class != "" && c != class {
				return "", "", nil, false
			}
			class = c
			names = append(names, a)
		}
		return t.Text(l), class, names, len(names) > 0
	}
	return "", "", nil, false
}
