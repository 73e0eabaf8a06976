package facts

import (
	"slices"

	"github.com/sglint/sglint/analyzer/syntax"
)

// caseFacts: case clause c of a match statement matched (val) or not. Only
// literal patterns teach something, about the subject: an integer (or a
// union of integers) about a length or a number (`match len(x): case 0:
// return` leaves x non-empty), None about None, a string or a number
// matched about not None. Class, sequence and mapping patterns, captures
// and guards teach nothing (a guard's test is an edge of its own).
func (a *analysis) caseFacts(c syntax.NodeID, val bool, dst []int32) []int32 {
	t := a.t
	body := t.Parent(c)
	if body == syntax.NoNode {
		return dst
	}
	m := t.Parent(body)
	if m == syntax.NoNode || t.Kind(m) != syntax.MatchStatement {
		return dst
	}
	subject, subjects := syntax.NoNode, 0
	for x := range t.FieldAll(m, syntax.FSubject) {
		subject = x
		subjects++
	}
	if subjects != 1 {
		return dst // `match a, b:` matches a tuple
	}
	pat := syntax.NoNode
	for p := range t.NamedChildren(c) {
		if t.Kind(p) != syntax.CasePattern {
			continue
		}
		if pat != syntax.NoNode {
			return dst
		}
		pat = p
	}
	if pat == syntax.NoNode {
		return dst
	}
	lit := t.NamedChild(pat, 0)
	if lit == syntax.NoNode || t.NamedChild(pat, 1) != syntax.NoNode {
		return dst
	}
	switch t.Kind(lit) {
	case syntax.None:
		k := NotNone
		if val {
			k = IsNone
		}
		return a.pathFact(subject, k, dst)
	case syntax.String, syntax.ConcatenatedString, syntax.Float, syntax.True, syntax.False:
		if val {
			dst = a.pathFact(subject, NotNone, dst)
		}
		return dst
	}
	ints, ok := caseInts(t, pat, lit)
	if !ok {
		return dst
	}
	holds := func(l int64) bool { return slices.Contains(ints, l) == val }
	if x, ok := lenArg(t, subject); ok {
		return a.lenOutcome(x, holds, slices.Max(ints), dst)
	}
	if val {
		dst = a.pathFact(subject, NotNone, dst)
	}
	return a.zeroOutcome(subject, holds, dst)
}

// caseInts reads an integer pattern, or a union of them, as the integers
// it matches. A negative literal is refused (the pattern's text is then
// not the integer's).
func caseInts(t *syntax.Tree, pat, lit syntax.NodeID) ([]int64, bool) {
	var nodes []syntax.NodeID
	switch t.Kind(lit) {
	case syntax.Integer:
		if t.Text(pat) != t.Text(lit) {
			return nil, false
		}
		nodes = []syntax.NodeID{lit}
	case syntax.UnionPattern:
		for x := range t.NamedChildren(lit) {
			nodes = append(nodes, x)
		}
	default:
		return nil, false
	}
	var out []int64
	for _, x := range nodes {
		v, ok := intLit(t, x)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	// A union's text must be its integers alone (no `-1 | 0`).
	if t.Kind(lit) == syntax.UnionPattern && slices.Contains(t.Bytes(lit), '-') {
		return nil, false
	}
	return out, len(out) > 0
}
