package pymodel

import (
	"strings"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Expression classes: what project class an expression's value is, best
// effort, for rules that meet a value read from a table (nixl's
// `dst_info = self.decode_kv_args_table[name]`) and would otherwise look
// its attributes up by name across the project.

// ExprClass returns the project class of the value of expression n in
// function fn: a dotted name (TypeOf), a constructor call, a classmethod
// that returns `cls(...)` or is annotated with its class, or an item of a
// dict attribute whose items have a known class (`self.t[k]`,
// `self.t.get(k)`, see ItemClass). false when it is not known.
func (fl *Flow) ExprClass(fn FuncRef, n syntax.NodeID) (ClassRef, bool) {
	return fl.exprClass(fn, n, 0)
}

func (fl *Flow) exprClass(fn FuncRef, n syntax.NodeID, depth int) (ClassRef, bool) {
	ix := fl.ix
	t := fl.tree(fn.File)
	if t == nil || depth > 4 || !ix.validFunc(fn) {
		return NoClass, false
	}
	n = t.Unparen(n)
	if n == syntax.NoNode {
		return NoClass, false
	}
	switch t.Kind(n) {
	case syntax.Identifier, syntax.Attribute:
		if p, ok := facts.AttrPathOf(t, n); ok {
			return ix.TypeOf(fn.File, fn.Func, p)
		}
	case syntax.Subscript:
		return fl.itemOf(fn, t.Field(n, syntax.FValue), depth)
	case syntax.Call:
		f := t.Field(n, syntax.FFunction)
		if f == syntax.NoNode {
			break
		}
		if t.Kind(f) == syntax.Attribute && t.TextIs(t.Field(f, syntax.FAttribute), "get") {
			if c, ok := fl.itemOf(fn, t.Field(f, syntax.FObject), depth); ok {
				return c, true
			}
		}
		dotted, ok := facts.AttrPathOf(t, f)
		if !ok {
			break
		}
		if sym := ix.Resolve(fn.File, fn.Func, dotted); sym.Kind == SymClass {
			return sym.Class, true // a constructor
		}
		// Cls.make(...): a classmethod that builds its class.
		recv, name, ok := strings.Cut(dotted, ".")
		if !ok || strings.ContainsRune(name, '.') {
			break
		}
		sym := ix.Resolve(fn.File, fn.Func, recv)
		if sym.Kind != SymClass {
			break
		}
		if m := ix.LookupMethod(sym.Class, name).Func; m.Valid() && ix.Func(m).Kind == ClassMethod && ix.buildsCls(m) {
			return sym.Class, true
		}
	}
	return NoClass, false
}

// itemOf is the item class of the dict that expression tab (an attribute
// path of fn) holds.
func (fl *Flow) itemOf(fn FuncRef, tab syntax.NodeID, depth int) (ClassRef, bool) {
	p, ok := facts.AttrPathOf(fl.tree(fn.File), tab)
	if !ok {
		return NoClass, false
	}
	owner, attr, ok := fl.ix.OwnerOf(fn, p)
	if !ok {
		return NoClass, false
	}
	return fl.itemClass(owner, attr, depth+1)
}

// buildsCls: classmethod m returns `cls(...)` on every return (and is not
// annotated otherwise).
func (ix *Index) buildsCls(m FuncRef) bool {
	f := ix.Func(m)
	if len(f.Params) == 0 {
		return false
	}
	cls := f.Params[0].Name
	s := ix.Summary(m.File)
	rets := ix.files[m.File].funcRets.of(m.Func)
	if len(rets) == 0 || f.FallsOff {
		return false
	}
	for _, ri := range rets {
		r := &s.Returns[ri]
		if r.Call < 0 {
			return false
		}
		c := &s.Calls[r.Call]
		if c.Kind != RefName || c.Name != cls {
			return false
		}
	}
	return true
}

// ItemClass returns the project class of the values dict attribute attr of
// instances of c holds: its annotation's value type (`Dict[str, Info]`),
// else the class every by-key store agrees on (`self.t[k] = info` with
// `info: Info`, or `Info.from_msg(...)`), over c's bases and subclasses.
func (fl *Flow) ItemClass(c ClassRef, attr string) (ClassRef, bool) {
	return fl.itemClass(c, attr, 0)
}

func (fl *Flow) itemClass(c ClassRef, attr string, depth int) (ClassRef, bool) {
	ix := fl.ix
	if depth > 4 || !c.Valid() {
		return NoClass, false
	}
	info := ix.Attr(c, attr)
	if info.Annotation != "" {
		v, ok := dictValueType(info.Annotation)
		if !ok {
			return NoClass, false
		}
		fn := int32(-1)
		if info.AnnotationAt.Field < 0 {
			fn = ix.Use(info.AnnotationAt.Use).Func
		} else {
			fn = ix.Class(info.AnnotationAt.Class).Func
		}
		return ix.ResolveType(info.AnnotationAt.Class.File, fn, v)
	}
	found := NoClass
	for _, member := range ix.Family(c) {
		for _, ur := range ix.SelfUses(member, attr) {
			u := ix.Use(ur)
			if u.Kind != Mutate || u.Op != MutSetItem || u.Path != attr {
				continue
			}
			fn := FuncRef{ur.File, u.Func}
			v := fl.storedValue(ur)
			if v == syntax.NoNode {
				return NoClass, false
			}
			r, ok := fl.exprClass(fn, v, depth+1)
			if !ok || found.Valid() && found != r {
				return NoClass, false
			}
			found = r
		}
	}
	return found, found.Valid()
}

// storedValue is v of the store `self.t[k] = v` that use u (of `self.t`)
// belongs to.
func (fl *Flow) storedValue(u UseRef) syntax.NodeID {
	t := fl.tree(u.File)
	n := fl.ix.Use(u).At.Node
	if t == nil || n < 0 || int(n) >= t.Len() {
		return syntax.NoNode
	}
	sub := t.Parent(n)
	if sub == syntax.NoNode || t.Kind(sub) != syntax.Subscript {
		return syntax.NoNode
	}
	asg := t.Parent(sub)
	if asg == syntax.NoNode || t.Kind(asg) != syntax.Assignment || t.FieldOf(sub) != syntax.FLeft {
		return syntax.NoNode
	}
	return t.Field(asg, syntax.FRight)
}

// dictValueType reads the value type of `Dict[K, V]`, `dict[K, V]`,
// `Mapping[K, V]`, `OrderedDict[K, V]` (with `typing.` or not).
func dictValueType(a string) (string, bool) {
	a = strings.TrimSpace(a)
	for _, name := range []string{"Dict", "dict", "Mapping", "MutableMapping", "OrderedDict"} {
		for _, prefix := range []string{"", "typing.", "collections.", "t."} {
			head := prefix + name + "["
			if strings.HasPrefix(a, head) && strings.HasSuffix(a, "]") {
				parts := pyname.SplitTop(a[len(head):len(a)-1], ',')
				if len(parts) == 2 {
					return strings.TrimSpace(parts[1]), true
				}
				return "", false
			}
		}
	}
	return "", false
}
