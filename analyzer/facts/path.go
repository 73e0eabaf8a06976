package facts

import (
	"strings"

	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Path is an access path in canonical form: a name followed by attribute
// and subscript accesses, `x`, `self.a.b`, `t[k]`, `t['key']`, `t[0]`,
// with no spaces or parentheses. A subscript key is itself a path or a
// literal (a plain string in single quotes, an integer, None, True, False).
// Paths from different functions compare equal when they are spelled the
// same; translating `self` between caller and callee is the caller's job
// (see Rebase).
type Path string

// PathOf returns the access path that expression n denotes, if it is one:
// names, attributes and subscripts by a path or a literal, through
// parentheses; `getattr(x, "a")` and `getattr(x, "a", None)` are `x.a`
// (the value is the attribute's whenever it exists). Other calls, slices
// and other expressions are not paths.
func PathOf(t *syntax.Tree, n syntax.NodeID) (Path, bool) {
	b, ok := appendPath(nil, t, n, false)
	return Path(b), ok
}

// AttrPathOf is PathOf for a path that reads no subscript: a name, or
// attributes over one (`self.kv_mgr.descs`), as a dotted name.
func AttrPathOf(t *syntax.Tree, n syntax.NodeID) (string, bool) {
	p, ok := PathOf(t, n)
	if !ok || strings.ContainsRune(string(p), '[') {
		return "", false
	}
	return string(p), true
}

// appendPath appends the canonical form of n to dst; literals qualify only
// as keys (lit).
func appendPath(dst []byte, t *syntax.Tree, n syntax.NodeID, lit bool) ([]byte, bool) {
	n = t.Unparen(n)
	if n == syntax.NoNode || t.IsError(n) || t.IsMissing(n) {
		return dst, false
	}
	switch t.Kind(n) {
	case syntax.Identifier:
		return append(dst, t.Bytes(n)...), true
	case syntax.Attribute:
		obj, attr := t.Field(n, syntax.FObject), t.Field(n, syntax.FAttribute)
		if attr == syntax.NoNode || t.IsMissing(attr) {
			return dst, false
		}
		dst, ok := appendPath(dst, t, obj, false)
		if !ok {
			return dst, false
		}
		dst = append(dst, '.')
		return append(dst, t.Bytes(attr)...), true
	case syntax.Call:
		obj, name, ok := getattrOf(t, n)
		if !ok {
			return dst, false
		}
		if dst, ok = appendPath(dst, t, obj, false); !ok {
			return dst, false
		}
		dst = append(dst, '.')
		return append(dst, name...), true
	case syntax.Subscript:
		key := subscriptKey(t, n)
		tuple, isTuple := "", false
		if key == syntax.NoNode {
			if tuple, isTuple = tupleKey(t, subscripts(t, n)); !isTuple {
				return dst, false
			}
		}
		dst, ok := appendPath(dst, t, t.Field(n, syntax.FValue), false)
		if !ok {
			return dst, false
		}
		dst = append(dst, '[')
		if isTuple {
			dst = append(dst, tuple...)
		} else if dst, ok = appendPath(dst, t, key, true); !ok {
			return dst, false
		}
		return append(dst, ']'), true
	}
	if lit {
		if s, ok := literalKey(t, n); ok {
			return append(dst, s...), true
		}
		if t.Kind(n) == syntax.Tuple {
			if s, ok := tupleKey(t, namedChildren(t, n)); ok {
				return append(dst, s...), true
			}
		}
	}
	return dst, false
}

// tupleKey is the canonical form of a tuple used as a key (`t[a, b]`,
// `(a, b) in t`): "(a,b)" when every element is a path or a literal. It
// is interned as a literal (never rebound): a fact about `(a, b) in t`
// does not die when a or b is rebound, which can only hide a lookup, and
// does not cross calls.
func tupleKey(t *syntax.Tree, elems []syntax.NodeID) (string, bool) {
	if len(elems) < 2 {
		return "", false
	}
	b := []byte{'('}
	for i, e := range elems {
		if i > 0 {
			b = append(b, ',')
		}
		if t.Kind(t.Unparen(e)) == syntax.Tuple {
			return "", false
		}
		var ok bool
		if b, ok = appendPath(b, t, e, true); !ok {
			return "", false
		}
	}
	return string(append(b, ')')), true
}

// subscripts are the indices of a subscript, none when one is a slice.
func subscripts(t *syntax.Tree, n syntax.NodeID) []syntax.NodeID {
	var out []syntax.NodeID
	for k := range t.FieldAll(n, syntax.FSubscript) {
		if t.Kind(k) == syntax.Slice {
			return nil
		}
		out = append(out, k)
	}
	return out
}

func namedChildren(t *syntax.Tree, n syntax.NodeID) []syntax.NodeID {
	var out []syntax.NodeID
	for c := range t.NamedChildren(n) {
		out = append(out, c)
	}
	return out
}

// SubscriptKey is the single index of a subscript (NoNode for slices and
// multiple indices).
func SubscriptKey(t *syntax.Tree, n syntax.NodeID) syntax.NodeID { return subscriptKey(t, n) }

func subscriptKey(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	key := syntax.NoNode
	for k := range t.FieldAll(n, syntax.FSubscript) {
		if key != syntax.NoNode {
			return syntax.NoNode
		}
		key = k
	}
	if key != syntax.NoNode && t.Kind(key) == syntax.Slice {
		return syntax.NoNode
	}
	return key
}

// literalKey is the canonical form of a literal usable as a key.
func literalKey(t *syntax.Tree, n syntax.NodeID) (string, bool) {
	switch t.Kind(n) {
	case syntax.Integer, syntax.None, syntax.True, syntax.False:
		return t.Text(n), true
	case syntax.String:
		s := t.Text(n)
		// Plain one-line strings without escapes or quotes inside become
		// '...', so "k" and 'k' are the same key.
		if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] &&
			!(len(s) >= 6 && (strings.HasPrefix(s, `"""`) || strings.HasPrefix(s, "'''"))) {
			inner := s[1 : len(s)-1]
			if !strings.ContainsAny(inner, "\\'\"\n[]") {
				return "'" + inner + "'", true
			}
		}
	}
	return "", false
}

// HasPrefix reports whether q is p or a path p extends (`self.a` is a
// prefix of `self.a.b` and of `self.a[k]`, not of `self.ab`).
func (p Path) HasPrefix(q Path) bool {
	if !strings.HasPrefix(string(p), string(q)) {
		return false
	}
	if len(p) == len(q) {
		return true
	}
	c := p[len(q)]
	return c == '.' || c == '['
}

// Rebase replaces prefix old of p by new: Path("self.a.b").Rebase("self",
// "mgr") is "mgr.a.b". It reports false if old is not a prefix of p. Keys
// inside subscripts are not rewritten.
func (p Path) Rebase(old, new Path) (Path, bool) {
	if !p.HasPrefix(old) {
		return p, false
	}
	return new + p[len(old):], true
}

// Root is the name a path starts from (`self` for `self.a[k].b`).
func (p Path) Root() string {
	for i := 0; i < len(p); i++ {
		if p[i] == '.' || p[i] == '[' {
			return string(p[:i])
		}
	}
	return string(p)
}

// IsLiteral reports a literal key ('s', 0, None, True, False).
func (p Path) IsLiteral() bool {
	if p == "" {
		return false
	}
	c := p[0]
	return c == '\'' || c == '-' || c == '(' || (c >= '0' && c <= '9') || p == "None" || p == "True" || p == "False"
}

// getattrOf matches `getattr(obj, "name")` and `getattr(obj, "name",
// None)` with a literal attribute name.
func getattrOf(t *syntax.Tree, n syntax.NodeID) (syntax.NodeID, string, bool) {
	args, ok := builtinCall(t, n, "getattr")
	if !ok || len(args) < 2 || len(args) > 3 {
		return syntax.NoNode, "", false
	}
	if len(args) == 3 && t.Kind(t.Unparen(args[2])) != syntax.None {
		return syntax.NoNode, "", false
	}
	lit, ok := literalKey(t, t.Unparen(args[1]))
	if !ok || len(lit) < 3 || lit[0] != '\'' {
		return syntax.NoNode, "", false
	}
	name := lit[1 : len(lit)-1]
	if !pyname.IsIdent(name) {
		return syntax.NoNode, "", false
	}
	return args[0], name, true
}
