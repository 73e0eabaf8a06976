package memkind

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/reaching"
	"github.com/sglint/sglint/analyzer/syntax"
)

// attrMayNone: `obj.name` may be None when the attribute is declared
// Optional, or assigned None, in obj's class or its bases. obj's class is
// taken from annotations and constructors, and from what a local was
// bound to (an item of a table whose items have a known class, as nixl's
// `dst_info = self.decode_kv_args_table[name]`). When it is unknown, the
// attribute is looked up by name across the project's classes that have
// every attribute the function reads on obj (duck typing: a class without
// them cannot be obj's), and trusted only if all of them agree it may be
// None; one declaring it plainly is enough to stay silent.
func (c *checker) attrMayNone(fl *flow, n syntax.NodeID) *origin {
	t := fl.tree
	obj, an := t.Field(n, syntax.FObject), t.Field(n, syntax.FAttribute)
	if obj == syntax.NoNode || an == syntax.NoNode {
		return nil
	}
	return c.attrOfMayNone(fl, obj, t.Text(an))
}

func (c *checker) attrOfMayNone(fl *flow, obj syntax.NodeID, attr string) *origin {
	t := fl.tree
	fn := fl.fn
	if cls, typed := c.classOf(fl, obj); typed {
		if !c.ix.Attr(cls, attr).Optional {
			return nil
		}
		return c.attrOrigin(attr, []pymodel.ClassRef{cls}, false)
	}
	p, isPath := facts.PathOf(t, obj)
	if isPath && !strings.ContainsRune(string(p), '[') {
		switch c.ix.Resolve(fn.File, fn.Func, string(p)).Kind {
		case pymodel.SymNone, pymodel.SymVar:
		default:
			return nil // a module, a class, a function: not an instance
		}
	}
	used := []string{attr}
	if isPath {
		used = attrsReadOn(t, c.ix.Func(fn).Def, p, attr)
	}
	var decls []pymodel.ClassRef
	for _, d := range c.ix.AttrDeclarers(attr) {
		if c.ix.HasAttrs(d, used) {
			decls = append(decls, d)
		}
	}
	if len(decls) == 0 {
		return nil
	}
	for _, d := range decls {
		if !c.ix.Attr(d, attr).Optional {
			return nil
		}
	}
	return c.attrOrigin(attr, decls, true)
}

// classOf is the project class of the value of expression obj in fl's
// function, when known: from the engine (pymodel Flow.ExprClass), or for a
// local, from every binding of it that reaches obj.
func (c *checker) classOf(fl *flow, obj syntax.NodeID) (pymodel.ClassRef, bool) {
	pf := c.pass.Project.Flow
	if pf == nil {
		if p, ok := facts.AttrPathOf(fl.tree, obj); ok {
			return c.ix.TypeOf(fl.fn.File, fl.fn.Func, p)
		}
		return pymodel.NoClass, false
	}
	if cls, ok := pf.ExprClass(fl.fn, obj); ok {
		return cls, true
	}
	t := fl.tree
	obj = t.Unparen(obj)
	if t.Kind(obj) != syntax.Identifier {
		return pymodel.NoClass, false
	}
	found := pymodel.NoClass
	for _, d := range fl.defs.Reaching(obj, t.Text(obj)) {
		def := fl.defs.Def(d)
		if def.Kind != reaching.Assign || def.Value == syntax.NoNode {
			return pymodel.NoClass, false
		}
		cls, ok := pf.ExprClass(fl.fn, def.Value)
		if !ok || found.Valid() && found != cls {
			return pymodel.NoClass, false
		}
		found = cls
	}
	return found, found.Valid()
}

// attrsReadOn lists attr and the other attributes the function def reads
// on path p (`p.x`), in its own scope.
func attrsReadOn(t *syntax.Tree, def syntax.NodeID, p facts.Path, attr string) []string {
	out := []string{attr}
	for n := range t.OwnScope(def) {
		if t.Kind(n) != syntax.Attribute {
			continue
		}
		q, ok := facts.PathOf(t, t.Field(n, syntax.FObject))
		if !ok || q != p {
			continue
		}
		if name := t.Text(t.Field(n, syntax.FAttribute)); !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// attrOrigin describes where attribute attr of classes is declared
// Optional or set to None, and who sets it otherwise.
func (c *checker) attrOrigin(attr string, classes []pymodel.ClassRef, byName bool) *origin {
	ix := c.ix
	info := ix.Attr(classes[0], attr)
	if len(info.NoneAt) == 0 {
		return nil
	}
	site := info.NoneAt[0]
	// Short class names, unless two of the classes share one.
	short := map[string]int{}
	distinct := map[pymodel.ClassRef]bool{}
	for _, o := range append([]pymodel.ClassRef{site.Class}, classes...) {
		if !distinct[o] {
			distinct[o] = true
			short[ix.Class(o).Name]++
		}
	}
	name := func(o pymodel.ClassRef) string {
		if n := ix.Class(o).Name; short[n] == 1 {
			return n
		}
		return ix.ClassName(o)
	}
	why, at := c.describeSite(site, name(site.Class))
	if len(classes) > 1 {
		var others []string
		for _, o := range classes[1:] {
			others = append(others, "`"+name(o)+"`")
		}
		why += " (also in " + strings.Join(others, ", ") + ")"
	}
	note := "declared here"
	if byName {
		note = "declared here; the receiver's class is unknown, so the attribute was matched by name"
	}
	related := []analyzer.Related{c.related(site.Class.File, at, note)}
	setters, setAt := c.settersOf(attr, classes)
	switch {
	case len(setters) == 1:
		why += ", set only by `" + setters[0] + "`"
	case len(setters) > 1 && len(setters) <= 3:
		why += ", set by `" + strings.Join(setters, "`, `") + "`"
	case len(setters) > 3:
		why += fmt.Sprintf(", set in %d functions", len(setters))
	}
	if len(setters) > 0 {
		related = append(related, c.related(setAt.File, setAt.At, "given a value here"))
	}
	return &origin{why: why, related: related}
}

// describeSite says how a site declares an attribute Optional or sets it
// to None, and where.
func (c *checker) describeSite(site pymodel.AttrSite, cls string) (string, pymodel.Pos) {
	ix := c.ix
	if site.Field >= 0 {
		f := &ix.Class(site.Class).Fields[site.Field]
		if f.Annotation == "" {
			return fmt.Sprintf("set to `%s` in the body of `%s`", clip(f.ValueText, 40), cls), f.At
		}
		decl := f.Annotation
		if f.HasValue {
			decl += " = " + f.ValueText
		}
		return fmt.Sprintf("declared `%s` in `%s`", clip(decl, 60), cls), f.At
	}
	u := ix.Use(site.Use)
	value := c.assignedText(site.Use)
	if u.Annotation != "" && u.Optional {
		decl := u.Annotation
		if value != "" {
			decl += " = " + value
		}
		return fmt.Sprintf("declared `%s` in `%s`", clip(decl, 60), cls), u.At
	}
	method := ix.Func(pymodel.FuncRef{File: site.Use.File, Func: u.Func}).Name
	if u.Value == pymodel.ValueMaybeNone {
		return fmt.Sprintf("set by a conditional expression with a None arm in `%s.%s`", cls, method), u.At
	}
	if value == "" {
		value = "None"
	}
	return fmt.Sprintf("set to `%s` in `%s.%s`", clip(value, 40), cls, method), u.At
}

// assignedText is the right side of the assignment of use u, "" if its
// tree is not loaded.
func (c *checker) assignedText(u pymodel.UseRef) string {
	t := c.tree(u.File)
	n := c.ix.Use(u).At.Node
	if t == nil || n < 0 || int(n) >= t.Len() {
		return ""
	}
	for p := t.Parent(n); p != syntax.NoNode; p = t.Parent(p) {
		if t.Kind(p) == syntax.Assignment {
			right := t.Field(p, syntax.FRight)
			for right != syntax.NoNode && t.Kind(right) == syntax.Assignment {
				right = t.Field(right, syntax.FRight)
			}
			if right == syntax.NoNode {
				return ""
			}
			return t.Text(right)
		}
		if t.Kind(p) == syntax.ExpressionStatement || t.Kind(p) == syntax.Block {
			break
		}
	}
	return ""
}

type setAt struct {
	File int32
	At   pymodel.Pos
}

// settersOf lists the functions that give attr a value other than None
// (any receiver: `self.attr = v`, `info.attr = v`) and the constructor
// calls of classes that pass it as a keyword, with the first place.
func (c *checker) settersOf(attr string, classes []pymodel.ClassRef) ([]string, setAt) {
	ix := c.ix
	var names []string
	var first setAt
	seen := map[string]bool{}
	add := func(name string, file int32, at pymodel.Pos) {
		if seen[name] {
			return
		}
		if len(names) == 0 {
			first = setAt{file, at}
		}
		seen[name] = true
		names = append(names, name)
	}
	for _, ur := range ix.AttrAssigns(attr) {
		u := ix.Use(ur)
		if u.Value == pymodel.ValueNone || u.Value == pymodel.ValueMaybeNone || u.Func < 0 {
			continue
		}
		add(ix.Func(pymodel.FuncRef{File: ur.File, Func: u.Func}).Name, ur.File, u.At)
	}
	isClass := map[pymodel.ClassRef]bool{}
	for _, cl := range classes {
		isClass[cl] = true
	}
	for fi := range ix.Files {
		s := ix.Files[fi].Summary
		for ci := range s.Calls {
			site := pymodel.CallSite{File: int32(fi), Call: int32(ci)}
			for _, a := range ix.Args(site) {
				if a.Keyword != attr || a.Value == pymodel.ValueNone {
					continue
				}
				for _, cal := range ix.Callees(site) {
					if cal.Kind == pymodel.CallCtor && isClass[cal.Class] {
						add(ix.Class(cal.Class).Name+"(...)", site.File, a.At)
					}
				}
			}
		}
	}
	return names, first
}
