package emptysend

import (
	"strings"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/kvfail"
)

// refused reports whether the send at call is not reached with empty
// indices, or is reached only after the code looked at their length:
// facts prove one of the names the value passed through non-empty there,
// or an if around the send, or before it in an enclosing block, tests the
// length of one of them (`if len(pages) == 0: return`, or handing the
// length to the backend, `if not sender.should_send(len(pages), last)`).
func (c *checker) refused(fl *flow, call syntax.NodeID, names []string) bool {
	if fl.facts != nil {
		for _, n := range names {
			if fl.facts.Holds(call, facts.NonEmptyFact(facts.Path(n))) {
				return true
			}
		}
	}
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	t := fl.tree
	for a := call; a != fl.def && a != syntax.NoNode; a = t.Parent(a) {
		p := t.Parent(a)
		if p == syntax.NoNode {
			break
		}
		switch t.Kind(p) {
		case syntax.IfStatement:
			if t.Field(p, syntax.FCondition) != a && ifTestsLength(t, p, set) {
				return true
			}
		case syntax.Block, syntax.Module:
			for s := t.FirstChild(p); s != syntax.NoNode && s != a; s = t.NextSibling(s) {
				if t.Kind(s) == syntax.IfStatement && ifTestsLength(t, s, set) {
					return true
				}
			}
		}
	}
	return false
}

// ifTestsLength: the condition of the if statement or of one of its elif
// clauses tests the length of a name in names.
func ifTestsLength(t *syntax.Tree, ifs syntax.NodeID, names map[string]bool) bool {
	if testsLength(t, t.Field(ifs, syntax.FCondition), names) {
		return true
	}
	for alt := range t.FieldAll(ifs, syntax.FAlternative) {
		if t.Kind(alt) == syntax.ElifClause && testsLength(t, t.Field(alt, syntax.FCondition), names) {
			return true
		}
	}
	return false
}

// condOf is the condition of an if, elif or conditional expression.
func condOf(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	if t.Kind(n) == syntax.ConditionalExpression {
		return t.NamedChild(n, 1)
	}
	return t.Field(n, syntax.FCondition)
}

// testsLength reports whether cond looks at the length of a name in names
// (see lengthTested).
func testsLength(t *syntax.Tree, cond syntax.NodeID, names map[string]bool) bool {
	for _, n := range lengthTested(t, cond, false) {
		if names[n] {
			return true
		}
	}
	return false
}

// looksAtLength: an if, elif or conditional expression in body tests the
// length of name (the function handles an empty value its own way).
func looksAtLength(t *syntax.Tree, body syntax.NodeID, name string) bool {
	names := map[string]bool{name: true}
	for n := body; n < t.SubtreeEnd(body); n++ {
		switch t.Kind(n) {
		case syntax.IfStatement, syntax.ElifClause, syntax.ConditionalExpression:
			if testsLength(t, condOf(t, n), names) {
				return true
			}
		}
	}
	return false
}

// lengthTested lists the names whose length cond looks at: `len(x)`,
// `x.size`, `x.numel()`, `x.shape`, `not x`, or x's own truth (alone or as
// an operand of `and`/`or`). With attrs, an attribute path counts by its
// last name (`self.dst_kv_indices.size` tests `dst_kv_indices`): what
// another KV class tests, as evidence. Without, only names do: a test of
// `self.cache.page_indices` says nothing of the local `page_indices`.
func lengthTested(t *syntax.Tree, cond syntax.NodeID, attrs bool) []string {
	if cond == syntax.NoNode {
		return nil
	}
	var out []string
	add := func(x syntax.NodeID) {
		x = t.Unparen(x)
		switch {
		case x == syntax.NoNode:
		case t.Kind(x) == syntax.Identifier:
			out = append(out, t.Text(x))
		case attrs && t.Kind(x) == syntax.Attribute:
			out = append(out, t.Text(t.Field(x, syntax.FAttribute)))
		}
	}
	if k := t.Kind(t.Unparen(cond)); k == syntax.Identifier || k == syntax.Attribute {
		add(cond)
	}
	for n := cond; n < t.SubtreeEnd(cond); n++ {
		switch t.Kind(n) {
		case syntax.NotOperator:
			add(t.Field(n, syntax.FArgument))
		case syntax.BooleanOperator:
			for _, side := range []syntax.NodeID{t.Field(n, syntax.FLeft), t.Field(n, syntax.FRight)} {
				if k := t.Kind(t.Unparen(side)); k == syntax.Identifier {
					add(side)
				}
			}
		case syntax.Attribute:
			switch t.Text(t.Field(n, syntax.FAttribute)) {
			case "size", "shape", "numel":
				add(t.Field(n, syntax.FObject))
			}
		case syntax.Call:
			if fn := t.Field(n, syntax.FFunction); fn != syntax.NoNode && t.Kind(fn) == syntax.Identifier && t.TextIs(fn, "len") {
				if args := t.Field(n, syntax.FArguments); args != syntax.NoNode {
					add(t.NamedChild(args, 0))
				}
			}
		}
	}
	return out
}

// concluded reports whether a statement that runs before the send on
// every path through the enclosing blocks (an earlier simple statement of
// a block holding it) gives the request a terminal status: it reads a
// `Success` or `Failed` status (`update_status(room, KVPoll.Success)`) or
// makes a call that ends the request (kvfail.EndsRequest: `prepare_abort`,
// `record_failure`). A chunk sent after that is not waited for.
func concluded(t *syntax.Tree, call, def syntax.NodeID) bool {
	for a := call; a != def && a != syntax.NoNode; a = t.Parent(a) {
		p := t.Parent(a)
		if p == syntax.NoNode {
			break
		}
		if t.Kind(p) != syntax.Block {
			continue
		}
		for s := t.FirstChild(p); s != syntax.NoNode && s != a; s = t.NextSibling(s) {
			if t.Kind(s) == syntax.ExpressionStatement && concludes(t, s) {
				return true
			}
		}
	}
	return false
}

func concludes(t *syntax.Tree, s syntax.NodeID) bool {
	end := t.SubtreeEnd(s)
	for n := s; n < end; n++ {
		switch t.Kind(n) {
		case syntax.Attribute:
			attr := t.Field(n, syntax.FAttribute)
			if attr == syntax.NoNode {
				continue
			}
			if t.TextIs(attr, "Success") || t.TextIs(attr, "Failed") {
				return true
			}
			if p := t.Parent(n); p != syntax.NoNode && t.Kind(p) == syntax.Call && t.Field(p, syntax.FFunction) == n &&
				kvfail.EndsRequest(t.Text(attr)) {
				return true
			}
		case syntax.Identifier:
			if p := t.Parent(n); p != syntax.NoNode && t.Kind(p) == syntax.Call && t.Field(p, syntax.FFunction) == n &&
				kvfail.EndsRequest(t.Text(n)) {
				return true
			}
		}
	}
	return false
}

func containsFold(s, sub string) bool { return strings.Contains(strings.ToLower(s), sub) }
