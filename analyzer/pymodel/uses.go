package pymodel

import (
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
)

// identifier records the use of an access path when n is the `self` of the
// current function or one of its parameters.
func (s *summarizer) identifier(n syntax.NodeID) {
	t := s.t
	sc := s.top()
	if sc == nil || sc.fn < 0 {
		return
	}
	if f := t.FieldOf(n); f == syntax.FAttribute || f == syntax.FName {
		return // attribute names, keyword names, walrus targets
	}
	self := false
	param := int16(-1)
	if sc.self != "" && t.TextIs(n, sc.self) {
		self, param = true, sc.selfParam
	} else {
		ps := s.sum.Functions[sc.fn].Params
		for i := range ps {
			if t.TextIs(n, ps[i].Name) {
				param = int16(i)
				break
			}
		}
		if param < 0 {
			return
		}
	}
	// Climb to the whole attribute chain over the root.
	top := n
	for {
		p := t.Parent(top)
		if p == syntax.NoNode || t.Kind(p) != syntax.Attribute || t.FieldOf(top) != syntax.FObject {
			break
		}
		top = p
	}
	u := AttrUse{Func: sc.fn, Self: self, Param: param}
	if top != n {
		u.Path = s.pathAfter(n, top)
	}
	s.classify(&u, top)
	if u.Kind == Read && u.Op == OpNone {
		return // nothing worth keeping (see classify)
	}
	if u.Path == "" && (self || u.Kind == Assign || u.Kind == Delete || u.Kind == Read && (u.Op == ReadPlain || u.Op == ReadArg)) {
		return // bare self, rebinding a parameter, or a plain use of one
	}
	u.At = s.at(top)
	s.sum.Uses = append(s.sum.Uses, u)
}

// pathAfter is the dotted text of chain top after its root identifier.
func (s *summarizer) pathAfter(root, top syntax.NodeID) string {
	txt := s.src[s.t.EndByte(root):s.t.EndByte(top)]
	for i := 0; i < len(txt); i++ {
		if c := txt[i]; c == ' ' || c == '\t' || c == '\n' || c == '\\' || c == '#' || c == '\r' {
			txt = compactDotted(txt)
			break
		}
	}
	if len(txt) > 0 && txt[0] == '.' {
		txt = txt[1:]
	}
	return txt
}

var mutators = map[string]UseOp{
	"append": MutAppend, "extend": MutExtend, "insert": MutInsert, "add": MutAdd,
	"update": MutUpdate, "setdefault": MutSetdefault, "pop": MutPop, "popitem": MutPopitem,
	"clear": MutClear, "remove": MutRemove, "discard": MutDiscard,
	"appendleft": MutAppend, "extendleft": MutExtend, "popleft": MutPop,
}

// iterating builtins: an argument of these is iterated.
var iterating = map[string]bool{
	"enumerate": true, "zip": true, "sorted": true, "reversed": true, "iter": true,
	"list": true, "tuple": true, "set": true, "frozenset": true, "sum": true,
	"min": true, "max": true, "any": true, "all": true, "map": true, "filter": true,
}

// classify fills u.Kind/Op (and the value of assignments) from the context
// of the access path expression e.
func (s *summarizer) classify(u *AttrUse, e syntax.NodeID) {
	t := s.t
	p := t.Parent(e)
	if p == syntax.NoNode {
		return
	}
	f := t.FieldOf(e)
	switch k := t.Kind(p); k {
	case syntax.Call:
		if f != syntax.FFunction {
			return
		}
		// path.m(...): a method call on the chain without its last segment.
		if u.Path == "" {
			u.Kind, u.Op = Read, OpNone // calling the root itself: the call's business
			return
		}
		recv, m := pyname.Parent(u.Path), pyname.Last(u.Path)
		u.Path, u.Method = recv, m
		if op, ok := mutators[m]; ok {
			u.Kind, u.Op = Mutate, op
		} else {
			u.Kind, u.Op = Read, ReadMethod
		}
		if recv == "" && u.Self {
			u.Kind, u.Op = Read, OpNone // self.m(): a call, not a use
		}
	case syntax.Subscript:
		if f != syntax.FValue {
			u.Kind, u.Op = Read, ReadPlain
			return
		}
		sub := t.Field(p, syntax.FSubscript)
		op := ReadIndex
		if sub != syntax.NoNode && t.Kind(sub) == syntax.Slice {
			op = ReadSlice
		}
		switch ctx, cf := s.storeContext(p); ctx {
		case syntax.Assignment, syntax.AugmentedAssignment:
			if cf == syntax.FLeft {
				u.Kind, u.Op = Mutate, MutSetItem
				return
			}
		case syntax.DeleteStatement:
			u.Kind, u.Op = Mutate, MutDelItem
			return
		}
		u.Kind, u.Op = Read, op
	case syntax.Assignment:
		switch f {
		case syntax.FLeft:
			u.Kind = Assign
			s.assignedValue(u, p)
		case syntax.FRight:
			u.Kind, u.Op = Read, ReadPlain
			if l := t.Field(p, syntax.FLeft); l != syntax.NoNode && isPattern(t.Kind(l)) {
				u.Op = ReadUnpack
			}
		default:
			u.Kind, u.Op = Read, ReadPlain
		}
	case syntax.AugmentedAssignment:
		if f == syntax.FLeft {
			u.Kind, u.Op = Mutate, MutAugAssign
		} else {
			u.Kind, u.Op = Read, ReadPlain
		}
	case syntax.PatternList, syntax.TuplePattern, syntax.ListPattern, syntax.Tuple, syntax.List, syntax.ExpressionList:
		if ctx, cf := s.storeContext(e); (ctx == syntax.Assignment || ctx == syntax.ForStatement) && cf == syntax.FLeft {
			u.Kind, u.Value = Assign, ValueOther
			s.unpackedValue(u, p, e)
			return
		} else if ctx == syntax.DeleteStatement {
			u.Kind = Delete
			return
		}
		u.Kind, u.Op = Read, ReadPlain
	case syntax.ForStatement, syntax.ForInClause:
		switch f {
		case syntax.FRight:
			u.Kind, u.Op = Read, ReadIter
		case syntax.FLeft:
			u.Kind, u.Value = Assign, ValueOther
		default:
			u.Kind, u.Op = Read, ReadPlain
		}
	case syntax.ListSplat:
		u.Kind, u.Op = Read, ReadIter
	case syntax.DeleteStatement:
		u.Kind = Delete
	case syntax.ArgumentList, syntax.KeywordArgument:
		call := p
		if k == syntax.KeywordArgument {
			if f != syntax.FValue {
				return
			}
			call = t.Parent(p)
		}
		if call != syntax.NoNode {
			call = t.Parent(call)
		}
		u.Kind, u.Op = Read, ReadArg
		if call != syntax.NoNode && t.Kind(call) == syntax.Call {
			if fn := t.Field(call, syntax.FFunction); fn != syntax.NoNode && t.Kind(fn) == syntax.Identifier {
				name := s.text(fn)
				if name == "len" {
					u.Op = ReadLen
				} else if iterating[name] {
					u.Op = ReadIter
				}
			}
		}
	default:
		u.Kind, u.Op = Read, ReadPlain
	}
}

// storeContext climbs from a target through tuple/list patterns and
// returns the statement kind it belongs to and the field it sits under.
func (s *summarizer) storeContext(n syntax.NodeID) (syntax.Kind, syntax.Field) {
	t := s.t
	for {
		p := t.Parent(n)
		if p == syntax.NoNode {
			return 0, 0
		}
		switch k := t.Kind(p); k {
		case syntax.PatternList, syntax.TuplePattern, syntax.ListPattern, syntax.Tuple, syntax.List,
			syntax.ExpressionList, syntax.ParenthesizedExpression:
			n = p
		default:
			return k, t.FieldOf(n)
		}
	}
}

func isPattern(k syntax.Kind) bool {
	return k == syntax.PatternList || k == syntax.TuplePattern || k == syntax.ListPattern ||
		k == syntax.Tuple || k == syntax.List
}

// assignedValue fills the value, annotation and ref of an assignment a to
// the use's target.
func (s *summarizer) assignedValue(u *AttrUse, a syntax.NodeID) {
	t := s.t
	if ty := t.Field(a, syntax.FType); ty != syntax.NoNode {
		u.Annotation = s.text(ty)
		u.Optional = s.optionalType(ty)
	}
	r := t.Field(a, syntax.FRight)
	if r == syntax.NoNode {
		u.Value = ValueOther // `self.x: T` declares without assigning
		return
	}
	u.Value = s.valueKind(r)
	u.Ref = s.valueRef(r)
	// Chained assignment `self.a = self.b = []`: the right side is an
	// assignment; its value is the value.
	for t.Kind(r) == syntax.Assignment {
		if rr := t.Field(r, syntax.FRight); rr != syntax.NoNode {
			r = rr
			u.Value, u.Ref = s.valueKind(r), s.valueRef(r)
			continue
		}
		break
	}
}

// valueRef is the callee of a call value or the dotted name of a name value.
func (s *summarizer) valueRef(v syntax.NodeID) string {
	t := s.t
	v = t.Unparen(v)
	if v == syntax.NoNode {
		return ""
	}
	switch t.Kind(v) {
	case syntax.Call:
		if f := t.Field(v, syntax.FFunction); f != syntax.NoNode {
			if d, ok := s.dotted(f); ok {
				return d
			}
		}
	case syntax.Identifier, syntax.Attribute:
		if d, ok := s.dotted(v); ok {
			return d
		}
	}
	return ""
}

func (s *summarizer) call(n syntax.NodeID) {
	t := s.t
	c := Call{Func: s.fn(), At: s.at(n)}
	c.Try, _, _ = s.tryAt()
	if p := t.Parent(n); p != syntax.NoNode && t.Kind(p) == syntax.Await {
		c.Await = true
	}
	f := t.Unparen(t.Field(n, syntax.FFunction))
	if f != syntax.NoNode {
		switch t.Kind(f) {
		case syntax.Identifier:
			c.Kind, c.Name = RefName, s.text(f)
		case syntax.Attribute:
			obj, attr := t.Field(f, syntax.FObject), t.Field(f, syntax.FAttribute)
			if attr != syntax.NoNode {
				c.Name = s.text(attr)
			}
			obj = t.Unparen(obj)
			switch {
			case obj == syntax.NoNode || attr == syntax.NoNode:
			case t.Kind(obj) == syntax.Call && s.isSuper(obj):
				c.Kind = RefSuper
				if args := t.Field(obj, syntax.FArguments); args != syntax.NoNode {
					if a := t.NamedChild(args, 0); a != syntax.NoNode {
						c.Recv = s.exprText(a)
					}
				}
			default:
				if d, ok := s.dotted(obj); ok {
					c.Kind, c.Recv = RefAttr, d
				}
			}
		}
	}
	c.Args[0] = int32(len(s.sum.Args))
	if args := t.Field(n, syntax.FArguments); args != syntax.NoNode {
		if t.Kind(args) == syntax.GeneratorExpression {
			s.sum.Args = append(s.sum.Args, Arg{Index: 0, Lambda: -1, At: s.at(args)})
		} else {
			var pos int16
			for a := range t.NamedChildren(args) {
				arg := Arg{Index: -1, Lambda: -1}
				v := a
				switch t.Kind(a) {
				case syntax.KeywordArgument:
					k := t.Field(a, syntax.FName)
					v = t.Field(a, syntax.FValue)
					if k == syntax.NoNode || v == syntax.NoNode {
						continue
					}
					arg.Keyword = s.text(k)
				case syntax.ListSplat:
					arg.Star = 1
					v = t.NamedChild(a, 0)
				case syntax.DictionarySplat:
					arg.Star = 2
					v = t.NamedChild(a, 0)
				default:
					arg.Index = pos
					pos++
				}
				if v == syntax.NoNode {
					continue
				}
				arg.Value = s.valueKind(v)
				if arg.Value == ValueName {
					arg.Path, _ = s.dotted(t.Unparen(v))
				}
				arg.At = s.at(v)
				s.sum.Args = append(s.sum.Args, arg)
			}
		}
	}
	c.Args[1] = int32(len(s.sum.Args))
	s.sum.Calls = append(s.sum.Calls, c)
}

func (s *summarizer) isSuper(call syntax.NodeID) bool {
	f := s.t.Field(call, syntax.FFunction)
	return f != syntax.NoNode && s.t.Kind(f) == syntax.Identifier && s.t.TextIs(f, "super")
}

// assignment records module globals, class fields and typed locals. Uses
// of self and parameters on either side are recorded by identifier.
func (s *summarizer) assignment(n syntax.NodeID) {
	t := s.t
	left := t.Field(n, syntax.FLeft)
	if left == syntax.NoNode {
		return
	}
	ty := t.Field(n, syntax.FType)
	right := t.Field(n, syntax.FRight)
	for right != syntax.NoNode && t.Kind(right) == syntax.Assignment { // a = b = v
		right = t.Field(right, syntax.FRight)
	}
	sc := s.top()
	switch {
	case sc == nil: // module level
		if t.Kind(left) == syntax.Identifier {
			g := Global{Name: s.text(left), At: s.at(left)}
			if ty != syntax.NoNode {
				g.Annotation = s.text(ty)
			}
			if right != syntax.NoNode {
				g.Value, g.Ref = s.valueKind(right), s.valueRef(right)
			}
			s.sum.Globals = append(s.sum.Globals, g)
		} else if isPattern(t.Kind(left)) {
			for c := range t.NamedChildren(left) {
				if t.Kind(c) == syntax.Identifier {
					s.sum.Globals = append(s.sum.Globals, Global{Name: s.text(c), At: s.at(c)})
				}
			}
		}
	case sc.fn < 0: // class body
		if t.Kind(left) != syntax.Identifier {
			return
		}
		f := Field{Name: s.text(left), At: s.at(n)}
		if ty != syntax.NoNode {
			f.Annotation = s.text(ty)
			f.Optional = s.optionalType(ty)
			f.ClassVar = hasPrefix(f.Annotation, "ClassVar") || hasPrefix(f.Annotation, "typing.ClassVar")
		}
		if right != syntax.NoNode {
			f.HasValue = true
			f.Value = s.valueKind(right)
			f.ValueText = s.text(right)
			if f.Value == ValueNone {
				f.Optional = true
			}
		}
		cl := &s.sum.Classes[sc.class]
		cl.Fields = append(cl.Fields, f)
	default: // function body: typed locals
		if t.Kind(left) != syntax.Identifier {
			return
		}
		name := s.text(left)
		if name == sc.self {
			return
		}
		lt := LocalType{Func: sc.fn, Name: name}
		switch {
		case ty != syntax.NoNode:
			lt.Type = s.text(ty)
		case kindOf(t, t.Unparen(right)) == syntax.Call:
			lt.Type, lt.Ctor = s.valueRef(right), true
		}
		if lt.Type == "" {
			known := false
			for _, k := range sc.typed {
				if k == name {
					known = true
					break
				}
			}
			if !known {
				return
			}
		} else {
			sc.typed = append(sc.typed, name)
		}
		s.sum.Locals = append(s.sum.Locals, lt)
	}
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
