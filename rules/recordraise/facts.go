package recordraise

import (
	"strings"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
)

// testFacts are the facts that hold when test takes value: the common
// shapes of an assert's test (`x`, `not x`, `x is None`, `x is not None`,
// `k in t`, `k not in t`, `len(x) == 0`, `isinstance(x, C)`, `a and b`).
// The facts package learns the same on branch edges; this is for the
// failing edge of an assert, which it does not expose.
func testFacts(t *syntax.Tree, test syntax.NodeID, value bool) []facts.Fact {
	n := t.Unparen(test)
	switch t.Kind(n) {
	case syntax.NotOperator:
		return testFacts(t, t.Field(n, syntax.FArgument), !value)
	case syntax.BooleanOperator:
		op := t.Field(n, syntax.FOperator)
		and := t.Kind(op) == syntax.KwAnd
		if and != value {
			return nil // one of the operands took value: unknown which
		}
		return append(testFacts(t, t.Field(n, syntax.FLeft), value), testFacts(t, t.Field(n, syntax.FRight), value)...)
	case syntax.Identifier, syntax.Attribute, syntax.Subscript:
		if p, ok := facts.PathOf(t, n); ok {
			return []facts.Fact{{Kind: pick(value, facts.Truthy, facts.Falsy), Path: p}}
		}
	case syntax.ComparisonOperator:
		return compareFacts(t, n, value)
	case syntax.Call:
		fn := t.Field(n, syntax.FFunction)
		args := t.Field(n, syntax.FArguments)
		if t.TextIs(fn, "isinstance") {
			x, c := t.NamedChild(args, 0), t.NamedChild(args, 1)
			if p, ok := facts.PathOf(t, x); ok && c != syntax.NoNode {
				return []facts.Fact{{Kind: pick(value, facts.IsInstance, facts.NotInstance), Path: p, Other: facts.Path(compact(t.Text(c)))}}
			}
		}
	}
	return nil
}

func compareFacts(t *syntax.Tree, n syntax.NodeID, value bool) []facts.Fact {
	var ops []syntax.NodeID
	for o := range t.FieldAll(n, syntax.FOperators) {
		ops = append(ops, o)
	}
	if len(ops) != 1 {
		return nil
	}
	l, r := t.Unparen(t.NamedChild(n, 0)), t.Unparen(t.NamedChild(n, 1))
	op := strings.Join(strings.Fields(t.Text(ops[0])), " ")
	switch op {
	case "is", "is not":
		isNone := (op == "is") == value
		x := l
		if t.Kind(l) == syntax.None {
			x = r
		} else if t.Kind(r) != syntax.None {
			return nil
		}
		if p, ok := facts.PathOf(t, x); ok {
			return []facts.Fact{{Kind: pick(isNone, facts.IsNone, facts.NotNone), Path: p}}
		}
	case "in", "not in":
		in := (op == "in") == value
		p, ok := facts.PathOf(t, r)
		k, kok := keyOf(t, l)
		if ok && kok {
			return []facts.Fact{{Kind: pick(in, facts.In, facts.NotIn), Path: p, Key: k}}
		}
	case "==", "!=", ">", "<", ">=", "<=":
		// len(x) compared with a small integer.
		call, c := l, r
		if t.Kind(call) != syntax.Call {
			return nil
		}
		if !t.TextIs(t.Field(call, syntax.FFunction), "len") || t.Kind(c) != syntax.Integer {
			return nil
		}
		x := t.NamedChild(t.Field(call, syntax.FArguments), 0)
		p, ok := facts.PathOf(t, x)
		if !ok {
			return nil
		}
		empty, known := lenEmpty(op, t.Text(c), value)
		if known {
			return []facts.Fact{{Kind: pick(empty, facts.Falsy, facts.Truthy), Path: p}}
		}
	}
	return nil
}

// lenEmpty says whether `len(x) OP c` taking value means x is empty.
func lenEmpty(op, c string, value bool) (empty, known bool) {
	switch {
	case c == "0" && (op == "==" || op == "<="), c == "1" && op == "<":
		return value, true
	case c == "0" && (op == "!=" || op == ">"), c == "1" && op == ">=":
		return !value, true
	}
	return false, false
}

// keyOf is the facts form of a membership key: an access path, or a
// literal written as the facts package writes keys.
func keyOf(t *syntax.Tree, n syntax.NodeID) (facts.Path, bool) {
	if p, ok := facts.PathOf(t, n); ok {
		return p, true
	}
	switch t.Kind(n) {
	case syntax.Integer, syntax.None, syntax.True, syntax.False:
		return facts.Path(t.Text(n)), true
	case syntax.String:
		s := t.Text(n)
		if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] && !strings.ContainsAny(s[1:len(s)-1], "\\'\"\n[]") {
			return facts.Path("'" + s[1:len(s)-1] + "'"), true
		}
	}
	return "", false
}

func compact(s string) string { return strings.Join(strings.Fields(s), "") }

func pick[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// conditionFacts are the site's raising condition as facts, in the raising
// function's names, with the aliases holding at the raise applied (`local
// = self.descs; if not local: raise` gives `self.descs` empty too).
func conditionFacts(t *syntax.Tree, s records.Site, atRaise []facts.Fact) []facts.Fact {
	var out []facts.Fact
	for _, c := range s.Conds {
		out = append(out, testFacts(t, c.Node, c.Value)...)
	}
	n := len(out)
	for _, a := range atRaise {
		if a.Kind != facts.Alias {
			continue
		}
		for _, f := range out[:n] {
			for _, pair := range [][2]facts.Path{{a.Path, a.Other}, {a.Other, a.Path}} {
				if g, ok := f.Path.Rebase(pair[0], pair[1]); ok {
					h := f
					h.Path = g
					out = append(out, h)
				}
			}
		}
	}
	return dedupe(out)
}

func dedupe(fs []facts.Fact) []facts.Fact {
	seen := map[facts.Fact]bool{}
	var out []facts.Fact
	for _, f := range fs {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// describe renders a fact for a message.
func describe(f facts.Fact) string {
	switch f.Kind {
	case facts.IsNone:
		return "`" + string(f.Path) + "` is None"
	case facts.NotNone:
		return "`" + string(f.Path) + "` is not None"
	case facts.Truthy:
		return "`" + string(f.Path) + "` is non-empty"
	case facts.Falsy:
		return "`" + string(f.Path) + "` is empty or None"
	case facts.In:
		return "`" + string(f.Key) + "` is in `" + string(f.Path) + "`"
	case facts.NotIn:
		return "`" + string(f.Key) + "` is not in `" + string(f.Path) + "`"
	case facts.IsInstance:
		return "`" + string(f.Path) + "` is a " + string(f.Other)
	case facts.NotInstance:
		return "`" + string(f.Path) + "` is not a " + string(f.Other)
	}
	return f.String()
}
