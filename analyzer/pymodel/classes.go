package pymodel

import (
	"strings"

	"github.com/sglint/sglint/analyzer/pyname"
)

// Base is one entry of a method resolution order: a class of the project,
// or an opaque class outside it (Class.File == -1).
type Base struct {
	Class ClassRef
	// Name is the qualified name: the project class's, the external one
	// ("abc.ABC", "threading.Thread"), or the base as written when it could
	// not be resolved.
	Name string
}

// External reports a base outside the project: its own bases and members
// are unknown.
func (b Base) External() bool { return !b.Class.Valid() }

func (ix *Index) linkClasses() {
	direct := make([][][]Base, len(ix.Files))
	for fi := range ix.Files {
		s := ix.Files[fi].Summary
		direct[fi] = make([][]Base, len(s.Classes))
		for ci := range s.Classes {
			c := &s.Classes[ci]
			self := ClassRef{int32(fi), int32(ci)}
			// Bases are evaluated in the scope enclosing the class.
			scopeFn := c.Func
			for o := c.Outer; o >= 0; o = s.Classes[o].Outer {
				scopeFn = s.Classes[o].Func
			}
			for _, b := range c.Bases {
				name := b
				if i := strings.IndexByte(name, '['); i >= 0 { // Generic[T], List[int]
					name = name[:i]
				}
				if name == "object" || name == "" {
					continue
				}
				sym := ix.Resolve(int32(fi), scopeFn, name)
				switch {
				case sym.Kind == SymClass && sym.Class != self:
					direct[fi][ci] = append(direct[fi][ci], Base{Class: sym.Class, Name: sym.Name})
					ix.subclasses[sym.Class] = append(ix.subclasses[sym.Class], self)
				case sym.Kind == SymExternal:
					direct[fi][ci] = append(direct[fi][ci], Base{Class: NoClass, Name: sym.Name})
				default:
					direct[fi][ci] = append(direct[fi][ci], Base{Class: NoClass, Name: b})
				}
			}
		}
	}
	ix.mro = make([][][]Base, len(ix.Files))
	for fi := range ix.Files {
		ix.mro[fi] = make([][]Base, len(direct[fi]))
	}
	visiting := map[ClassRef]bool{}
	var linearize func(c ClassRef) []Base
	linearize = func(c ClassRef) []Base {
		if m := ix.mro[c.File][c.Class]; m != nil {
			return m
		}
		self := Base{Class: c, Name: ix.ClassName(c)}
		if visiting[c] { // an inheritance cycle in broken code
			return []Base{self}
		}
		visiting[c] = true
		defer delete(visiting, c)
		var seqs [][]Base
		bases := direct[c.File][c.Class]
		for _, b := range bases {
			if b.External() {
				seqs = append(seqs, []Base{b})
			} else {
				seqs = append(seqs, linearize(b.Class))
			}
		}
		seqs = append(seqs, bases)
		out := append([]Base{self}, c3merge(seqs)...)
		ix.mro[c.File][c.Class] = out
		return out
	}
	for fi := range ix.Files {
		for ci := range direct[fi] {
			linearize(ClassRef{int32(fi), int32(ci)})
		}
	}
}

// c3merge is the C3 merge of Python's MRO; on an inconsistent hierarchy it
// falls back to a left-to-right depth-first order without duplicates.
func c3merge(seqs [][]Base) []Base {
	var out []Base
	work := make([][]Base, 0, len(seqs))
	for _, s := range seqs {
		if len(s) > 0 {
			work = append(work, s)
		}
	}
	for len(work) > 0 {
		var head Base
		found := false
		for _, s := range work {
			cand := s[0]
			inTail := false
			for _, t := range work {
				for _, x := range t[1:] {
					if x == cand {
						inTail = true
						break
					}
				}
				if inTail {
					break
				}
			}
			if !inTail {
				head, found = cand, true
				break
			}
		}
		if !found {
			return dfsOrder(seqs)
		}
		out = append(out, head)
		next := work[:0]
		for _, s := range work {
			if s[0] == head {
				s = s[1:]
			}
			if len(s) > 0 {
				next = append(next, s)
			}
		}
		work = next
	}
	return out
}

func dfsOrder(seqs [][]Base) []Base {
	var out []Base
	seen := map[Base]bool{}
	for _, s := range seqs {
		for _, b := range s {
			if !seen[b] {
				seen[b] = true
				out = append(out, b)
			}
		}
	}
	return out
}

// MRO is the method resolution order of c, starting with c itself. An
// external base appears once and hides its own bases.
func (ix *Index) MRO(c ClassRef) []Base {
	if ix.mro == nil || !ix.validClass(c) || ix.mro[c.File] == nil {
		return nil // still linking, or not a class
	}
	return ix.mro[c.File][c.Class]
}

// Subclasses are the project classes that list c as a direct base.
func (ix *Index) Subclasses(c ClassRef) []ClassRef { return ix.subclasses[c] }

// MethodLookup is the result of looking a method up along an MRO.
type MethodLookup struct {
	Func  FuncRef  // NoFunc when no project class in the MRO defines it
	Class ClassRef // the class defining it
	// Opaque lists the external bases met before the definition (all of
	// them when there is none): they might define the name themselves.
	Opaque []string
}

// LookupMethod finds the method name along the MRO of c.
func (ix *Index) LookupMethod(c ClassRef, name string) MethodLookup {
	return ix.lookupFrom(c, name, 0)
}

// LookupSuper finds the method `super().name` resolves to in a method of
// class owner, for an instance whose class is c (c == owner when unknown).
func (ix *Index) LookupSuper(c, owner ClassRef, name string) MethodLookup {
	mro := ix.MRO(c)
	for i, b := range mro {
		if b.Class == owner {
			return ix.lookupIn(mro[i+1:], name)
		}
	}
	return MethodLookup{Func: NoFunc, Class: NoClass}
}

func (ix *Index) lookupFrom(c ClassRef, name string, skip int) MethodLookup {
	mro := ix.MRO(c)
	if skip > len(mro) {
		skip = len(mro)
	}
	return ix.lookupIn(mro[skip:], name)
}

func (ix *Index) lookupIn(mro []Base, name string) MethodLookup {
	res := MethodLookup{Func: NoFunc, Class: NoClass}
	for _, b := range mro {
		if b.External() {
			res.Opaque = append(res.Opaque, b.Name)
			continue
		}
		s := ix.Files[b.Class.File].Summary
		for _, m := range s.Classes[b.Class.Class].Methods {
			if s.Functions[m].Name == name {
				res.Func, res.Class = FuncRef{b.Class.File, m}, b.Class
				return res
			}
		}
	}
	return res
}

// AttrSite is where an attribute of a class is declared or assigned: a
// field of the class body, or an assignment `self.name = ...` in a method.
type AttrSite struct {
	Class ClassRef
	Field int32  // index in the class's Fields, -1 for an assignment in a method
	Use   UseRef // the assignment (File -1 for a field)
}

// AttrInfo gathers what the class and its project bases say about one
// attribute name.
type AttrInfo struct {
	// Annotation is the first annotation along the MRO (class field or
	// annotated self assignment), "" if none; AnnotationAt says where.
	Annotation   string
	AnnotationAt AttrSite
	// Optional: declared Optional, or assigned None (or a conditional with
	// a None arm) somewhere; NoneAt lists those places.
	Optional bool
	NoneAt   []AttrSite
	// Assigns are the fields with a value and the assignments in methods.
	Assigns []AttrSite
	// Opaque are the external bases, which may declare it too.
	Opaque []string
}

// Attr collects the declarations and assignments of attribute name for
// instances of c, along its MRO.
func (ix *Index) Attr(c ClassRef, name string) AttrInfo {
	var info AttrInfo
	info.AnnotationAt.Field = -1
	for _, b := range ix.MRO(c) {
		if b.External() {
			info.Opaque = append(info.Opaque, b.Name)
			continue
		}
		s := ix.Files[b.Class.File].Summary
		cl := &s.Classes[b.Class.Class]
		for fi := range cl.Fields {
			f := &cl.Fields[fi]
			if f.Name != name {
				continue
			}
			site := AttrSite{Class: b.Class, Field: int32(fi), Use: UseRef{-1, -1}}
			if f.Annotation != "" && info.Annotation == "" {
				info.Annotation, info.AnnotationAt = f.Annotation, site
			}
			if f.Optional {
				info.Optional = true
				info.NoneAt = append(info.NoneAt, site)
			}
			if f.HasValue {
				info.Assigns = append(info.Assigns, site)
			}
		}
		for _, ui := range ix.files[b.Class.File].classUses[b.Class.Class][name] {
			u := &s.Uses[ui]
			if u.Kind != Assign {
				continue
			}
			site := AttrSite{Class: b.Class, Field: -1, Use: UseRef{b.Class.File, ui}}
			if u.Annotation != "" && info.Annotation == "" {
				info.Annotation, info.AnnotationAt = u.Annotation, site
			}
			if u.Optional || u.Value == ValueNone || u.Value == ValueMaybeNone {
				info.Optional = true
				info.NoneAt = append(info.NoneAt, site)
			}
			info.Assigns = append(info.Assigns, site)
		}
	}
	return info
}

// SelfUses returns the uses of `self.<path>` in the methods (and closures
// in them) of c and of its project bases, in MRO order.
func (ix *Index) SelfUses(c ClassRef, path string) []UseRef {
	var out []UseRef
	for _, b := range ix.MRO(c) {
		if b.External() {
			continue
		}
		for _, ui := range ix.files[b.Class.File].classUses[b.Class.Class][path] {
			out = append(out, UseRef{b.Class.File, ui})
		}
	}
	return out
}

// SelfPaths lists, sorted, the self paths used by c and its project bases.
func (ix *Index) SelfPaths(c ClassRef) []string {
	set := map[string]bool{}
	for _, b := range ix.MRO(c) {
		if !b.External() {
			for p := range ix.files[b.Class.File].classUses[b.Class.Class] {
				set[p] = true
			}
		}
	}
	return sortedKeys(set)
}

// ResolveType resolves an annotation written in function fn of file to a
// project class: `X`, `mod.X`, `"X"`, `Optional[X]`, `X | None`,
// `Union[X, None]`. Other annotations (generics, unions of classes) give
// false.
func (ix *Index) ResolveType(file, fn int32, annotation string) (ClassRef, bool) {
	core := coreType(annotation)
	if core == "" {
		return NoClass, false
	}
	sym := ix.Resolve(file, fn, core)
	if sym.Kind == SymClass {
		return sym.Class, true
	}
	return NoClass, false
}

// coreType strips Optional, None unions and quotes from an annotation and
// returns it when what is left is a dotted name.
func coreType(a string) string {
	for range 8 {
		a = strings.TrimSpace(a)
		if len(a) >= 2 && (a[0] == '"' || a[0] == '\'') && a[len(a)-1] == a[0] {
			a = a[1 : len(a)-1]
			continue
		}
		if inner, ok := unwrap(a, "Optional"); ok {
			a = inner
			continue
		}
		if inner, ok := unwrap(a, "Union"); ok {
			if one, ok := singleNonNone(pyname.SplitTop(inner, ',')); ok {
				a = one
				continue
			}
			return ""
		}
		if parts := pyname.SplitTop(a, '|'); len(parts) > 1 {
			if one, ok := singleNonNone(parts); ok {
				a = one
				continue
			}
			return ""
		}
		break
	}
	if a == "" || a == "None" {
		return ""
	}
	for i := 0; i < len(a); i++ {
		if c := a[i]; !(c == '.' || pyname.IsIdentByte(c)) {
			return ""
		}
	}
	return a
}

func unwrap(a, name string) (string, bool) {
	for _, p := range []string{name + "[", "typing." + name + "[", "t." + name + "["} {
		if strings.HasPrefix(a, p) && strings.HasSuffix(a, "]") {
			return a[len(p) : len(a)-1], true
		}
	}
	return "", false
}

func singleNonNone(parts []string) (string, bool) {
	var one string
	n := 0
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "None" || p == "" {
			continue
		}
		one = p
		n++
	}
	return one, n == 1
}

// SelfOf returns the name `self` has in function fn (a method's first
// parameter, or the enclosing method's in a nested function or lambda) and
// the class it denotes; "" and NoClass when fn has no self.
func (ix *Index) SelfOf(fn FuncRef) (string, ClassRef) {
	if !ix.validFunc(fn) {
		return "", NoClass
	}
	name, cls := ix.selfOf(fn.File, fn.Func)
	if cls < 0 {
		return "", NoClass
	}
	return name, ClassRef{fn.File, cls}
}

// selfOf returns the name `self` has in function fn and the class it
// denotes (-1 when none).
func (ix *Index) selfOf(file, fn int32) (string, int32) {
	s := ix.Files[file].Summary
	if fn < 0 || int(fn) >= len(s.Functions) {
		return "", -1
	}
	cls := s.Functions[fn].SelfClass
	if cls < 0 {
		return "", -1
	}
	for g := fn; g >= 0; g = s.Functions[g].Parent {
		f := &s.Functions[g]
		if f.Class == cls && (f.Kind == Method || f.Kind == Property) && len(f.Params) > 0 {
			return f.Params[0].Name, cls
		}
	}
	return "", -1
}

// TypeOf infers, best effort, the project class of the value a dotted name
// holds in function fn of file: `self` (and `cls` in a classmethod), a
// parameter with a class annotation, a local bound only to one class's
// constructor or annotated with a class, a module variable likewise; then
// each attribute through the annotations and constructor assignments of
// the classes met (`task.sender` with `task: Chunk` and `sender: Sender`
// in Chunk). An attribute a base constructor assigns from its parameter
// takes the most derived annotation of the value its subclasses'
// constructors pass down (`super().__init__(mgr)` with `mgr:
// MooncakeKVManager`, see ctorArgType). Anything else gives false.
func (ix *Index) TypeOf(file, fn int32, dotted string) (ClassRef, bool) {
	return ix.typeOf(file, fn, dotted, 0)
}

func (ix *Index) typeOf(file, fn int32, dotted string, depth int) (ClassRef, bool) {
	if depth > 6 || dotted == "" {
		return NoClass, false
	}
	first, rest, _ := strings.Cut(dotted, ".")
	c, ok := ix.nameType(file, fn, first)
	for ok && rest != "" {
		var seg string
		seg, rest, _ = strings.Cut(rest, ".")
		c, ok = ix.attrType(c, seg, depth+1)
	}
	return c, ok
}

// callResult is the class of what a call of callee (as written in
// function fn) returns: a project class's constructor, or a factory, a
// project function or method of self whose return annotation names a
// project class or whose every return builds one (`return Manager(...)`).
func (ix *Index) callResult(file, fn int32, callee string) (ClassRef, bool) {
	sym := ix.Resolve(file, fn, callee)
	var f FuncRef
	switch sym.Kind {
	case SymClass:
		return sym.Class, true
	case SymFunc:
		f = sym.Func
	default:
		self, cls := ix.selfOf(file, fn)
		name, ok := strings.CutPrefix(callee, self+".")
		if self == "" || !ok || strings.ContainsRune(name, '.') {
			return NoClass, false
		}
		if f = ix.LookupMethod(ClassRef{file, cls}, name).Func; !f.Valid() {
			return NoClass, false
		}
	}
	return ix.factoryClass(f)
}

// factoryClass is the class a factory function returns (see callResult).
func (ix *Index) factoryClass(f FuncRef) (ClassRef, bool) {
	fd := ix.Func(f)
	if fd.Returns != "" {
		return ix.ResolveType(f.File, f.Func, fd.Returns)
	}
	if fd.Generator || fd.FallsOff {
		return NoClass, false
	}
	s := ix.Files[f.File].Summary
	found := NoClass
	for i := range s.Returns {
		rt := &s.Returns[i]
		if rt.Func != f.Func {
			continue
		}
		if rt.Call < 0 {
			return NoClass, false
		}
		c := s.Calls[rt.Call]
		sym := ix.Resolve(f.File, f.Func, c.Callee())
		if sym.Kind != SymClass || found.Valid() && found != sym.Class {
			return NoClass, false
		}
		found = sym.Class
	}
	return found, found.Valid()
}

func (ix *Index) nameType(file, fn int32, name string) (ClassRef, bool) {
	s := ix.Files[file].Summary
	if fn >= 0 && int(fn) < len(s.Functions) {
		if self, cls := ix.selfOf(file, fn); self == name {
			return ClassRef{file, cls}, true
		}
		f := &s.Functions[fn]
		if f.Kind == ClassMethod && len(f.Params) > 0 && f.Params[0].Name == name && f.Class >= 0 {
			return ClassRef{file, f.Class}, true
		}
		for i := range f.Params {
			if f.Params[i].Name == name {
				if f.Params[i].Annotation == "" {
					return NoClass, false
				}
				return ix.ResolveType(file, fn, f.Params[i].Annotation)
			}
		}
		d := &ix.files[file]
		for g := fn; g >= 0; g = s.Functions[g].Parent {
			k := innerKey{g, name}
			if lt, ok := d.locals[k]; ok {
				if lt.Type == "" {
					return NoClass, false
				}
				if lt.Ctor {
					return ix.callResult(file, g, lt.Type)
				}
				return ix.ResolveType(file, g, lt.Type)
			}
		}
	}
	sym := ix.lookupName(file, fn, name, 0)
	if sym.Kind == SymVar {
		g := &ix.Files[sym.File].Summary.Globals[sym.Global]
		if g.Annotation != "" {
			return ix.ResolveType(sym.File, -1, g.Annotation)
		}
		if g.Value == ValueCall && g.Ref != "" {
			if cs := ix.Resolve(sym.File, -1, g.Ref); cs.Kind == SymClass {
				return cs.Class, true
			}
		}
	}
	return NoClass, false
}

// AttrType infers the project class held by attribute name of instances
// of c: its annotation, else the class all its typed assignments agree on
// (a constructor call, a factory's result as callResult says, or a name
// whose type is known, like the annotated parameter in `self.mgr = mgr`).
func (ix *Index) AttrType(c ClassRef, name string) (ClassRef, bool) {
	return ix.attrType(c, name, 0)
}

func (ix *Index) attrType(c ClassRef, name string, depth int) (ClassRef, bool) {
	if depth > 6 {
		return NoClass, false
	}
	info := ix.Attr(c, name)
	if info.Annotation != "" {
		site := info.AnnotationAt
		fn := int32(-1)
		if site.Field < 0 {
			fn = ix.Use(site.Use).Func
		} else {
			fn = ix.Class(site.Class).Func
		}
		if r, ok := ix.ResolveType(site.Class.File, fn, info.Annotation); ok {
			return r, true
		}
		return NoClass, false
	}
	found := NoClass
	for _, site := range info.Assigns {
		if site.Field >= 0 {
			continue
		}
		u := ix.Use(site.Use)
		var r ClassRef
		ok := false
		switch u.Value {
		case ValueCall:
			// A constructor, or a factory (`self.kv_manager =
			// self._init_kv_manager()` returning `-> CommonKVManager`).
			r, ok = ix.callResult(site.Use.File, u.Func, u.Ref)
		case ValueName:
			// A constructor's parameter: the type its subclasses' constructors
			// pass down, for instances of c.
			if fn := (FuncRef{site.Use.File, u.Func}); ix.Func(fn).Name == "__init__" {
				for pi, p := range ix.Func(fn).Params {
					if p.Name == u.Ref {
						r, ok = ix.ctorArgType(c, fn, pi)
					}
				}
			}
			if !ok {
				r, ok = ix.typeOf(site.Use.File, u.Func, u.Ref, depth+1)
			}
		}
		if !ok {
			continue
		}
		if found.Valid() && found != r {
			return NoClass, false
		}
		found = r
	}
	return found, found.Valid()
}
