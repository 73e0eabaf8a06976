package facts

import (
	"strings"

	"github.com/sglint/sglint/analyzer/syntax"
)

// TestFacts are the facts that hold when test takes value: the common
// shapes of an assert's test (`x`, `not x`, `x is None`, `x is not None`,
// `k in t`, `k not in t`, `len(x) == 0`, `isinstance(x, C)`, `a and b`).
// The analysis learns the same on branch edges; this is for what it does
// not expose, such as the failing edge of an assert.
func TestFacts(t *syntax.Tree, test syntax.NodeID, value bool) []Fact {
	n := t.Unparen(test)
	switch t.Kind(n) {
	case syntax.NotOperator:
		return TestFacts(t, t.Field(n, syntax.FArgument), !value)
	case syntax.BooleanOperator:
		op := t.Field(n, syntax.FOperator)
		and := t.Kind(op) == syntax.KwAnd
		if and != value {
			return nil // one of the operands took value: unknown which
		}
		return append(TestFacts(t, t.Field(n, syntax.FLeft), value), TestFacts(t, t.Field(n, syntax.FRight), value)...)
	case syntax.Identifier, syntax.Attribute, syntax.Subscript:
		if p, ok := PathOf(t, n); ok {
			return []Fact{{Kind: pickKind(value, Truthy, Falsy), Path: p}}
		}
	case syntax.ComparisonOperator:
		return testCompareFacts(t, n, value)
	case syntax.Call:
		fn := t.Field(n, syntax.FFunction)
		args := t.Field(n, syntax.FArguments)
		if t.TextIs(fn, "isinstance") {
			x, c := t.NamedChild(args, 0), t.NamedChild(args, 1)
			if p, ok := PathOf(t, x); ok && c != syntax.NoNode {
				return []Fact{{Kind: pickKind(value, IsInstance, NotInstance), Path: p, Other: Path(compactSpaces(t.Text(c)))}}
			}
		}
	}
	return nil
}

func testCompareFacts(t *syntax.Tree, n syntax.NodeID, value bool) []Fact {
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
		if p, ok := PathOf(t, x); ok {
			return []Fact{{Kind: pickKind(isNone, IsNone, NotNone), Path: p}}
		}
	case "in", "not in":
		in := (op == "in") == value
		p, ok := PathOf(t, r)
		k, kok := testKeyOf(t, l)
		if ok && kok {
			return []Fact{{Kind: pickKind(in, In, NotIn), Path: p, Key: k}}
		}
	case "==", "!=", ">", "<", ">=", "<=":
		// len(x) compared with len(y).
		if x, ok := lenArg(t, l); ok && (op == "==" || op == "!=") {
			if y, ok := lenArg(t, r); ok {
				p, pok := PathOf(t, x)
				q, qok := PathOf(t, y)
				if !pok || !qok || p == q {
					return nil
				}
				if q < p {
					p, q = q, p
				}
				return []Fact{{Kind: pickKind((op == "==") == value, SameLen, DiffLen), Path: p, Other: q}}
			}
		}
		// len(x) compared with a small integer.
		call, c := l, r
		if t.Kind(call) != syntax.Call {
			return nil
		}
		if !t.TextIs(t.Field(call, syntax.FFunction), "len") || t.Kind(c) != syntax.Integer {
			return nil
		}
		x := t.NamedChild(t.Field(call, syntax.FArguments), 0)
		p, ok := PathOf(t, x)
		if !ok {
			return nil
		}
		empty, known := testLenEmpty(op, t.Text(c), value)
		if known {
			return []Fact{{Kind: pickKind(empty, Falsy, Truthy), Path: p}}
		}
	}
	return nil
}

// testLenEmpty says whether `len(x) OP c` taking value means x is empty.
func testLenEmpty(op, c string, value bool) (empty, known bool) {
	switch {
	case c == "0" && (op == "==" || op == "<="), c == "1" && op == "<":
		return value, true
	case c == "0" && (op == "!=" || op == ">"), c == "1" && op == ">=":
		return !value, true
	}
	return false, false
}

// testKeyOf is the facts form of a membership key: an access path, or a
// literal written as the facts package writes keys.
func testKeyOf(t *syntax.Tree, n syntax.NodeID) (Path, bool) {
	if p, ok := PathOf(t, n); ok {
		return p, true
	}
	switch t.Kind(n) {
	case syntax.Integer, syntax.None, syntax.True, syntax.False:
		return Path(t.Text(n)), true
	case syntax.String:
		s := t.Text(n)
		if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] && !strings.ContainsAny(s[1:len(s)-1], "\\'\"\n[]") {
			return Path("'" + s[1:len(s)-1] + "'"), true
		}
	}
	return "", false
}

func compactSpaces(s string) string { return strings.Join(strings.Fields(s), "") }

func pickKind[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}
