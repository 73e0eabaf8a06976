package pymodel

import (
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Classifying values and annotations: what kind of value an expression is,
// and whether an annotation admits None.

var emptyCtors = map[string]ValueKind{
	"list": ValueEmptyList, "dict": ValueEmptyDict, "set": ValueEmptySet, "frozenset": ValueEmptySet,
	"tuple": ValueEmptyTuple, "deque": ValueEmptyList, "collections.deque": ValueEmptyList,
	"defaultdict": ValueEmptyDict, "collections.defaultdict": ValueEmptyDict,
	"OrderedDict": ValueEmptyDict, "collections.OrderedDict": ValueEmptyDict,
}

// valueKind classifies an expression used as a value.
func (s *summarizer) valueKind(v syntax.NodeID) ValueKind {
	t := s.t
	v = t.Unparen(v)
	if v == syntax.NoNode {
		return ValueOther
	}
	switch t.Kind(v) {
	case syntax.None:
		return ValueNone
	case syntax.List:
		if t.NamedChild(v, 0) == syntax.NoNode {
			return ValueEmptyList
		}
		return ValueLiteral
	case syntax.Dictionary:
		if t.NamedChild(v, 0) == syntax.NoNode {
			return ValueEmptyDict
		}
		return ValueLiteral
	case syntax.Tuple:
		if t.NamedChild(v, 0) == syntax.NoNode {
			return ValueEmptyTuple
		}
		return ValueLiteral
	case syntax.Set, syntax.Integer, syntax.Float, syntax.String, syntax.ConcatenatedString,
		syntax.True, syntax.False:
		return ValueLiteral
	case syntax.UnaryOperator:
		if a := t.NamedChild(v, 0); a != syntax.NoNode && (t.Kind(a) == syntax.Integer || t.Kind(a) == syntax.Float) {
			return ValueLiteral
		}
	case syntax.Lambda:
		return ValueLambda
	case syntax.Identifier, syntax.Attribute:
		if _, ok := s.dotted(v); ok {
			return ValueName
		}
	case syntax.ConditionalExpression:
		// tree-sitter-python gives no fields here: the arms are the named
		// children 0 and 2, the condition is 1.
		if a, b := t.NamedChild(v, 0), t.NamedChild(v, 2); isNone(t, a) || isNone(t, b) {
			return ValueMaybeNone
		}
	case syntax.Call:
		return s.callValueKind(v)
	}
	return ValueOther
}

// unpackedValue gives target e of `a, e = x, v` the value v.
func (s *summarizer) unpackedValue(u *AttrUse, pattern, e syntax.NodeID) {
	t := s.t
	a := t.Parent(pattern)
	if a == syntax.NoNode || t.Kind(a) != syntax.Assignment || t.FieldOf(pattern) != syntax.FLeft {
		return
	}
	r := t.Unparen(t.Field(a, syntax.FRight))
	if k := kindOf(t, r); k != syntax.ExpressionList && k != syntax.Tuple {
		return
	}
	i := 0
	for c := range t.NamedChildren(pattern) {
		if c == e {
			break
		}
		i++
	}
	if v := t.NamedChild(r, i); v != syntax.NoNode {
		u.Value, u.Ref = s.valueKind(v), s.valueRef(v)
	}
}

// kindOf is t.Kind that accepts NoNode (kind 0, which no node has).
func kindOf(t *syntax.Tree, n syntax.NodeID) syntax.Kind {
	if n == syntax.NoNode {
		return 0
	}
	return t.Kind(n)
}

func isNone(t *syntax.Tree, n syntax.NodeID) bool {
	n = t.Unparen(n)
	return n != syntax.NoNode && t.Kind(n) == syntax.None
}

func (s *summarizer) callValueKind(v syntax.NodeID) ValueKind {
	t := s.t
	f := t.Field(v, syntax.FFunction)
	args := t.Field(v, syntax.FArguments)
	if f == syntax.NoNode {
		return ValueCall
	}
	name, ok := s.dotted(f)
	if !ok {
		return ValueCall
	}
	nargs := 0
	if args != syntax.NoNode {
		for a := range t.NamedChildren(args) {
			if name == "field" || name == "dataclasses.field" {
				// field(default=None) / field(default_factory=list)
				if t.Kind(a) == syntax.KeywordArgument {
					k, val := t.Field(a, syntax.FName), t.Field(a, syntax.FValue)
					if k == syntax.NoNode || val == syntax.NoNode {
						continue
					}
					if t.TextIs(k, "default") {
						return s.valueKind(val)
					}
					if t.TextIs(k, "default_factory") {
						if d, ok := s.dotted(val); ok {
							if vk, ok := emptyCtors[d]; ok {
								return vk
							}
						}
						return ValueCall
					}
				}
				continue
			}
			nargs++
		}
	}
	if vk, ok := emptyCtors[name]; ok {
		if nargs == 0 || (vk == ValueEmptyDict && nargs == 1 && hasSuffix(name, "defaultdict")) {
			return vk
		}
	}
	return ValueCall
}

// optionalType reports whether an annotation admits None: Optional[X],
// Union[..., None], X | None, None, and the same inside a string.
func (s *summarizer) optionalType(n syntax.NodeID) bool {
	t := s.t
	n = t.Unparen(n)
	if n == syntax.NoNode {
		return false
	}
	switch t.Kind(n) {
	case syntax.Type:
		if c := t.NamedChild(n, 0); c != syntax.NoNode {
			return s.optionalType(c)
		}
	case syntax.None:
		return true
	case syntax.BinaryOperator:
		return s.optionalType(t.Field(n, syntax.FLeft)) || s.optionalType(t.Field(n, syntax.FRight))
	case syntax.GenericType:
		name := t.NamedChild(n, 0)
		if name == syntax.NoNode {
			return false
		}
		switch s.exprText(name) {
		case "Optional", "typing.Optional":
			return true
		case "Union", "typing.Union":
			if tp := t.NamedChild(n, 1); tp != syntax.NoNode {
				for c := range t.NamedChildren(tp) {
					if s.optionalType(c) {
						return true
					}
				}
			}
		}
	case syntax.Subscript:
		base := t.Field(n, syntax.FValue)
		if base == syntax.NoNode {
			return false
		}
		switch s.exprText(base) {
		case "Optional", "typing.Optional", "t.Optional":
			return true
		case "Union", "typing.Union", "t.Union":
			for c := range t.FieldAll(n, syntax.FSubscript) {
				if s.optionalType(c) {
					return true
				}
			}
		}
	case syntax.String:
		return optionalText(s.stringContent(n))
	}
	return false
}

// optionalText is optionalType for a string annotation: it looks for
// "Optional[" or a "None" word.
func optionalText(a string) bool {
	for i := 0; i+4 <= len(a); i++ {
		if a[i:i+4] == "None" && (i == 0 || !pyname.IsIdentByte(a[i-1])) && (i+4 == len(a) || !pyname.IsIdentByte(a[i+4])) {
			return true
		}
		if i+9 <= len(a) && a[i:i+9] == "Optional[" && (i == 0 || !pyname.IsIdentByte(a[i-1]) || a[i-1] == '.') {
			return true
		}
	}
	return false
}
