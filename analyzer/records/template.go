package records

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sglint/sglint/analyzer/syntax"
)

// TemplateOf reads the message expression n as a template: a string
// literal (implicitly concatenated or not, escapes decoded), an f-string
// (fields are holes), `"..." % args` (conversions are holes), `"...".
// format(...)` (fields are holes), `a + b` where one side is such a string
// (any other operand is a hole), or a local name bound once in its function
// to one of those. It reports false for any other expression: a message
// sglint cannot read matches no record.
func TemplateOf(t *syntax.Tree, n syntax.NodeID) (Template, bool) {
	return templateOf(t, n, 0)
}

// maxDepth bounds the nesting followed (concatenations, local names).
const maxDepth = 16

func templateOf(t *syntax.Tree, n syntax.NodeID, depth int) (Template, bool) {
	n = t.Unparen(n)
	if n == syntax.NoNode || t.IsError(n) || depth > maxDepth {
		return nil, false
	}
	switch t.Kind(n) {
	case syntax.String:
		return stringTemplate(t, n), true
	case syntax.ConcatenatedString:
		var tp Template
		for c := range t.NamedChildren(n) {
			if t.Kind(c) == syntax.String {
				tp = tp.appendAll(stringTemplate(t, c))
			}
		}
		return tp, true
	case syntax.BinaryOperator:
		op := t.Field(n, syntax.FOperator)
		left, right := t.Field(n, syntax.FLeft), t.Field(n, syntax.FRight)
		switch t.Kind(op) {
		case syntax.OpPercent:
			l, ok := templateOf(t, left, depth+1)
			if !ok {
				return nil, false
			}
			return percentFormat(l), true
		case syntax.OpPlus:
			l, lok := templateOf(t, left, depth+1)
			r, rok := templateOf(t, right, depth+1)
			if !lok && !rok {
				return nil, false
			}
			if !lok {
				l = Template{{Hole: true}}
			}
			if !rok {
				r = Template{{Hole: true}}
			}
			return append(Template(nil), l...).appendAll(r), true
		}
	case syntax.Call:
		fn := t.Field(n, syntax.FFunction)
		if t.Kind(fn) == syntax.Attribute && t.TextIs(t.Field(fn, syntax.FAttribute), "format") {
			obj := t.Unparen(t.Field(fn, syntax.FObject))
			if k := t.Kind(obj); k == syntax.String || k == syntax.ConcatenatedString {
				l, _ := templateOf(t, obj, depth+1)
				return braceFormat(l), true
			}
		}
	case syntax.Identifier:
		return localTemplate(t, n, depth)
	}
	return nil, false
}

// localTemplate is the message a local name holds where n reads it: the
// value of its only plain assignment, followed by what the `+=`
// assignments between that one and n append (`msg = f"..."; msg += ...`).
// An append that runs only on some paths (under an if, in a loop) is a
// hole: it may add its text or nothing.
func localTemplate(t *syntax.Tree, n syntax.NodeID, depth int) (Template, bool) {
	first, augs := bindings(t, n)
	if first == syntax.NoNode {
		return nil, false
	}
	tp, ok := templateOf(t, t.Field(first, syntax.FRight), depth+1)
	if !ok {
		return nil, false
	}
	tp = append(Template(nil), tp...)
	for _, a := range augs {
		part, ok := templateOf(t, t.Field(a, syntax.FRight), depth+1)
		if !ok || stmtBlock(t, a) != stmtBlock(t, first) {
			tp = tp.appendHole()
			continue
		}
		tp = tp.appendAll(part)
	}
	return tp, true
}

// stmtBlock is the block (or module) whose statement holds assignment a.
func stmtBlock(t *syntax.Tree, a syntax.NodeID) syntax.NodeID {
	p := t.Parent(a)
	if p != syntax.NoNode && t.Kind(p) == syntax.ExpressionStatement {
		p = t.Parent(p)
	}
	return p
}

// stringTemplate reads one string node: string_content (escapes decoded
// unless raw), interpolations as holes, `{{`/`}}` of f-strings as braces.
func stringTemplate(t *syntax.Tree, n syntax.NodeID) Template {
	raw := false
	for c := range t.Children(n) {
		if t.Kind(c) == syntax.StringStart {
			prefix := strings.ToLower(strings.TrimRight(t.Text(c), `"'`))
			raw = strings.Contains(prefix, "r")
		}
	}
	var tp Template
	for c := range t.Children(n) {
		switch t.Kind(c) {
		case syntax.StringContent:
			tp = tp.appendText(contentText(t, c, raw))
		case syntax.Interpolation:
			tp = tp.appendHole()
		}
	}
	return tp
}

// contentText is a string_content's value: escape_sequence children
// decoded (not in raw strings), escape_interpolation children (`{{` in an
// f-string) as one brace.
func contentText(t *syntax.Tree, n syntax.NodeID, raw bool) string {
	src := t.Src
	var b strings.Builder
	at := t.StartByte(n)
	for c := range t.Children(n) {
		k := t.Kind(c)
		if k != syntax.EscapeSequence && k != syntax.EscapeInterpolation {
			continue
		}
		b.Write(src[at:t.StartByte(c)])
		text := t.Text(c)
		switch {
		case k == syntax.EscapeInterpolation:
			b.WriteString(text[:1])
		case raw:
			b.WriteString(text)
		default:
			b.WriteString(decodeEscape(text))
		}
		at = t.EndByte(c)
	}
	b.Write(src[at:t.EndByte(n)])
	return b.String()
}

// decodeEscape decodes one Python escape sequence; an unknown one stays as
// written, as in Python.
func decodeEscape(e string) string {
	if len(e) < 2 || e[0] != '\\' {
		return e
	}
	switch e[1] {
	case '\n', '\r': // a line continuation
		return ""
	case '\\', '\'', '"':
		return e[1:2]
	case 'a':
		return "\a"
	case 'b':
		return "\b"
	case 'f':
		return "\f"
	case 'n':
		return "\n"
	case 'r':
		return "\r"
	case 't':
		return "\t"
	case 'v':
		return "\v"
	case 'x', 'u', 'U':
		if v, err := strconv.ParseUint(e[2:], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
			return string(rune(v))
		}
	case '0', '1', '2', '3', '4', '5', '6', '7':
		if v, err := strconv.ParseUint(e[1:], 8, 32); err == nil {
			return string(rune(v))
		}
	}
	return e
}

// percentFormat turns the %-conversions of a template's text into holes
// (`%s`, `%(name)d`, `%-10.3f`, `%*d`); `%%` is a percent sign.
func percentFormat(tp Template) Template {
	var out Template
	for _, p := range tp {
		if p.Hole {
			out = out.appendHole()
			continue
		}
		s := p.Text
		for {
			i := strings.IndexByte(s, '%')
			if i < 0 || i == len(s)-1 {
				out = out.appendText(s)
				break
			}
			out = out.appendText(s[:i])
			j := i + 1
			if s[j] == '%' {
				out = out.appendText("%")
				s = s[j+1:]
				continue
			}
			if s[j] == '(' {
				if k := strings.IndexByte(s[j:], ')'); k >= 0 {
					j += k + 1
				}
			}
			for j < len(s) && strings.IndexByte("#0- +*.0123456789hlL", s[j]) >= 0 {
				j++
			}
			if j < len(s) && strings.IndexByte("diouxXeEfFgGcrsa", s[j]) >= 0 {
				out = out.appendHole()
				s = s[j+1:]
				continue
			}
			// Not a conversion Python accepts (it would raise); keep the text.
			out = out.appendText(s[i : i+1])
			s = s[i+1:]
		}
	}
	return out
}

// braceFormat turns the `{...}` fields of a str.format template into holes;
// `{{` and `}}` are braces.
func braceFormat(tp Template) Template {
	var out Template
	for _, p := range tp {
		if p.Hole {
			out = out.appendHole()
			continue
		}
		s := p.Text
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case (c == '{' || c == '}') && i+1 < len(s) && s[i+1] == c:
				b.WriteByte(c)
				i++
			case c == '{':
				// A field, with nested fields in its format spec.
				depth := 1
				j := i + 1
				for ; j < len(s) && depth > 0; j++ {
					switch s[j] {
					case '{':
						depth++
					case '}':
						depth--
					}
				}
				out = out.appendText(b.String())
				b.Reset()
				out = out.appendHole()
				i = j - 1
			default:
				b.WriteByte(c)
			}
		}
		out = out.appendText(b.String())
	}
	return out
}

// bindings finds, in n's function (module level outside functions), the
// only plain assignment `name = value` to identifier n's name and the `+=`
// assignments to it that come after that one and before n, in source
// order. first is NoNode when there is no plain assignment, several, one
// after n, or another augmented operator.
func bindings(t *syntax.Tree, n syntax.NodeID) (first syntax.NodeID, augs []syntax.NodeID) {
	scope := t.Ancestor(n, syntax.FunctionDefinition, syntax.Lambda)
	if scope == syntax.NoNode {
		scope = t.Root()
	}
	name := t.Text(n)
	first = syntax.NoNode
	end := t.SubtreeEnd(scope)
	for m := scope; m < end; m++ {
		k := t.Kind(m)
		if k != syntax.Assignment && k != syntax.AugmentedAssignment {
			continue
		}
		left := t.Field(m, syntax.FLeft)
		if t.Kind(left) != syntax.Identifier || !t.TextIs(left, name) {
			continue
		}
		if inner := t.Ancestor(m, syntax.FunctionDefinition, syntax.Lambda); inner != scope && !(scope == t.Root() && inner == syntax.NoNode) {
			continue // another scope's name
		}
		switch {
		case k == syntax.Assignment && first == syntax.NoNode && m < n:
			first = m
		case k == syntax.AugmentedAssignment && first != syntax.NoNode && m < n && t.TextIs(t.Field(m, syntax.FOperator), "+="):
			augs = append(augs, m)
		case k == syntax.AugmentedAssignment && m > n:
			// after the read: does not change the message read here
		default:
			return syntax.NoNode, nil
		}
	}
	return first, augs
}
