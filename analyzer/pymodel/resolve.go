package pymodel

import (
	"strings"

	"github.com/sglint/sglint/analyzer/pyname"
)

// Name resolution over the index: what a dotted name written in a function
// denotes (a project class, function, module or variable, or an external
// name), through local definitions, imports (relative ones too), package
// re-exports and wildcard imports.

// SymKind is what a name denotes.
type SymKind uint8

const (
	SymNone     SymKind = iota // unknown: a local variable, a typo, a dynamic name
	SymModule                  // a module or package (of the project or not)
	SymClass                   // a class of the project
	SymFunc                    // a function of the project
	SymVar                     // a module-level variable of the project
	SymExternal                // a name outside the project (Name is its dotted path)
)

// Symbol is what a dotted name resolves to.
type Symbol struct {
	Kind SymKind
	// Name is the qualified name: the module, "mod.Class", "mod.func",
	// "mod.VAR", or the external dotted name ("threading.Thread", "KeyError"
	// for builtins).
	Name  string
	Class ClassRef
	Func  FuncRef
	// File is the module's file (SymModule), or the variable's (SymVar); -1
	// for a namespace package or a module outside the project.
	File   int32
	Global int32 // SymVar: index in the file's Globals
}

// Resolve resolves a dotted name as written in function fn of file (fn -1
// for module level): local definitions and imports of the enclosing
// functions, then the module's, then builtins.
func (ix *Index) Resolve(file, fn int32, dotted string) Symbol {
	return ix.resolve(file, fn, dotted, 0)
}

func (ix *Index) resolve(file, fn int32, dotted string, depth int) Symbol {
	if dotted == "" || depth > 12 {
		return Symbol{}
	}
	first, rest, _ := strings.Cut(dotted, ".")
	sym := ix.lookupName(file, fn, first, depth)
	for rest != "" && sym.Kind != SymNone {
		var seg string
		seg, rest, _ = strings.Cut(rest, ".")
		sym = ix.member(sym, seg, depth)
	}
	return sym
}

// lookupName resolves a single name in function fn's scopes.
func (ix *Index) lookupName(file, fn int32, name string, depth int) Symbol {
	d := &ix.files[file]
	s := ix.Files[file].Summary
	for f := fn; f >= 0 && int(f) < len(s.Functions); f = s.Functions[f].Parent {
		if x, ok := d.inner[innerKey{f, name}]; ok {
			return ix.defSymbol(file, x, depth)
		}
	}
	if x, ok := d.scope[name]; ok {
		return ix.defSymbol(file, x, depth)
	}
	if sym, ok := ix.wildcardMember(file, name, depth); ok {
		return sym
	}
	if builtinNames()[name] {
		return Symbol{Kind: SymExternal, Name: name, File: -1}
	}
	return Symbol{}
}

func (ix *Index) defSymbol(file int32, x def, depth int) Symbol {
	s := ix.Files[file].Summary
	mod := ix.Files[file].Module
	switch x.kind {
	case defClass:
		return Symbol{Kind: SymClass, Name: ix.files[file].classNames[x.idx], Class: ClassRef{file, x.idx}, File: file}
	case defFunc:
		return Symbol{Kind: SymFunc, Name: ix.FuncName(FuncRef{file, x.idx}), Func: FuncRef{file, x.idx}, File: file}
	case defGlobal:
		g := &s.Globals[x.idx]
		// A module-level alias `Foo = pkg.Bar` stands for what it names.
		if g.Value == ValueName && g.Ref != "" && g.Ref != g.Name && depth < 12 {
			if sym := ix.resolve(file, -1, g.Ref, depth+1); sym.Kind != SymNone {
				return sym
			}
		}
		return Symbol{Kind: SymVar, Name: joinName(mod, g.Name), File: file, Global: x.idx}
	case defImport:
		return ix.importSymbol(file, &s.Imports[x.idx], depth)
	}
	return Symbol{}
}

// importSymbol is what an import binds to its alias.
func (ix *Index) importSymbol(file int32, imp *Import, depth int) Symbol {
	f := &ix.Files[file]
	mod := imp.Module
	if imp.Level > 0 {
		abs, ok := pyname.ResolveRelative(f.Module, f.Package, int(imp.Level), imp.Module)
		if !ok {
			return Symbol{}
		}
		mod = abs
	}
	if imp.Name == "" { // import a.b [as c]
		if imp.Alias == firstSegment(mod) && imp.Level == 0 {
			return ix.moduleSymbol(firstSegment(mod))
		}
		return ix.moduleSymbol(mod)
	}
	if mod == "" { // `from . import x` at the top of the tree
		return ix.moduleSymbol(imp.Name)
	}
	return ix.member(ix.moduleSymbol(mod), imp.Name, depth+1)
}

// moduleSymbol names a module: the project's when it has it (exactly, as a
// package prefix, or as a unique dotted tail when the root was not where
// the imports start from), else an external one. A top package is taken
// as the project's when anything below it is.
func (ix *Index) moduleSymbol(name string) Symbol {
	if f, ok := ix.modules.Exact(name); ok {
		return Symbol{Kind: SymModule, Name: name, File: f}
	}
	if ix.packages[name] {
		return Symbol{Kind: SymModule, Name: name, File: -1}
	}
	if f, ok := ix.modules.Lookup(name); ok { // by its tail
		return Symbol{Kind: SymModule, Name: ix.Files[f].Module, File: f}
	}
	return Symbol{Kind: SymExternal, Name: name, File: -1}
}

// member resolves attribute seg of sym.
func (ix *Index) member(sym Symbol, seg string, depth int) Symbol {
	if depth > 12 {
		return Symbol{}
	}
	switch sym.Kind {
	case SymModule:
		if sym.File >= 0 {
			if x, ok := ix.files[sym.File].scope[seg]; ok {
				return ix.defSymbol(sym.File, x, depth+1)
			}
		}
		sub := sym.Name + "." + seg
		if _, ok := ix.modules.Exact(sub); ok || ix.packages[sub] {
			return ix.moduleSymbol(sub)
		}
		if sym.File >= 0 {
			if s, ok := ix.wildcardMember(sym.File, seg, depth+1); ok {
				return s
			}
			return Symbol{}
		}
		if ix.packages[sym.Name] {
			return Symbol{}
		}
		return Symbol{Kind: SymExternal, Name: sub, File: -1}
	case SymClass:
		q := sym.Name + "." + seg
		if c, ok := ix.classes[q]; ok {
			return Symbol{Kind: SymClass, Name: q, Class: c, File: c.File}
		}
		if m := ix.LookupMethod(sym.Class, seg); m.Func.Valid() {
			return Symbol{Kind: SymFunc, Name: ix.FuncName(m.Func), Func: m.Func, File: m.Func.File}
		}
	case SymExternal:
		return Symbol{Kind: SymExternal, Name: sym.Name + "." + seg, File: -1}
	}
	return Symbol{}
}

// wildcardMember looks name up through the `from M import *` of a file.
func (ix *Index) wildcardMember(file int32, name string, depth int) (Symbol, bool) {
	if depth > 12 {
		return Symbol{}, false
	}
	f := &ix.Files[file]
	for i := range f.Summary.Imports {
		imp := &f.Summary.Imports[i]
		if imp.Name != "*" || imp.Func >= 0 {
			continue
		}
		mod := imp.Module
		if imp.Level > 0 {
			abs, ok := pyname.ResolveRelative(f.Module, f.Package, int(imp.Level), imp.Module)
			if !ok {
				continue
			}
			mod = abs
		}
		ms := ix.moduleSymbol(mod)
		if ms.Kind != SymModule || ms.File < 0 || ms.File == file {
			continue
		}
		if x, ok := ix.files[ms.File].scope[name]; ok && !strings.HasPrefix(name, "_") {
			return ix.defSymbol(ms.File, x, depth+1), true
		}
		if s, ok := ix.wildcardMember(ms.File, name, depth+1); ok {
			return s, true
		}
	}
	return Symbol{}, false
}
