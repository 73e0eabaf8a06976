package prescan

import (
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer/pyname"
)

// Unit is one scanned file of a project.
type Unit struct {
	Module    string // dotted module name ("pkg.mod"; "pkg" for pkg/__init__.py)
	IsPackage bool   // an __init__ module
	File      *File
}

// Project links the units of a project by module name, lexically: imports
// and class bases resolve to the project's modules and classes without
// any parse.
type Project struct {
	units []Unit
	// modules finds units by module name, or by a unique dotted tail:
	// imports written from a source root above or below the project root
	// still resolve, as in the project model.
	modules pyname.Modules
}

// NewProject indexes units (the first unit of a module name wins, as in
// the project model).
func NewProject(units []Unit) *Project {
	p := &Project{units: units, modules: pyname.NewModules(len(units))}
	for i, u := range units {
		if u.File != nil {
			p.modules.Add(u.Module, int32(i))
		}
	}
	return p
}

// Len is the number of units.
func (p *Project) Len() int { return len(p.units) }

// Module is unit i's module name ("" for a unit that could not be read).
func (p *Project) Module(i int) string { return p.units[i].Module }

// ModuleOf returns the unit of a module name: exactly, or as the unique
// unit whose module name ends with it.
func (p *Project) ModuleOf(module string) (int, bool) {
	i, ok := p.modules.Lookup(module)
	return int(i), ok
}

// UnitOf returns the unit of the module a dotted name lives in: the name
// itself when it is a module, else its longest prefix that is one
// ("pkg.mod.Class.method" lives in "pkg.mod").
func (p *Project) UnitOf(dotted string) (int, bool) {
	i, _, ok := p.modulePrefix(dotted)
	return i, ok
}

// modulePrefix is UnitOf with the length of the prefix that named the
// module.
func (p *Project) modulePrefix(dotted string) (unit, n int, ok bool) {
	for name := dotted; name != ""; name = pyname.Parent(name) {
		if i, ok := p.ModuleOf(name); ok {
			return i, len(name), true
		}
	}
	return -1, 0, false
}

// canonical qualifies a dotted name's module part with the project's own
// module name ("sglang.x.C" is "python.sglang.x.C" when the root is above
// python/).
func (p *Project) canonical(q string) string {
	if i, n, ok := p.modulePrefix(q); ok {
		return p.units[i].Module + q[n:]
	}
	return q
}

// absolute resolves an import's module against unit i, as the project
// model does (pyname.ResolveRelative); false when it climbs above the top
// package.
func (p *Project) absolute(i int, imp Import) (string, bool) {
	u := p.units[i]
	return pyname.ResolveRelative(u.Module, u.IsPackage, imp.Level, imp.Module)
}

// resolveName qualifies a dotted name as written in unit i: through its
// imports, else as a name of its own module.
func (p *Project) resolveName(i int, dotted string) string {
	head, rest, _ := strings.Cut(dotted, ".")
	f := p.units[i].File
	if f != nil {
		for k := len(f.Imports) - 1; k >= 0; k-- {
			imp := f.Imports[k]
			if imp.Name != head {
				continue
			}
			q, ok := p.absolute(i, imp)
			if !ok {
				return dotted // bound to nothing the project knows: as written
			}
			switch {
			case imp.Member != "":
				q += "." + imp.Member
			case imp.Name == strings.SplitN(imp.Module, ".", 2)[0]:
				q = imp.Name // `import a.b` binds a
			}
			if rest != "" {
				q += "." + rest
			}
			return p.canonical(q)
		}
	}
	return p.units[i].Module + "." + dotted
}

// KVUnits returns the units that define one of bases or a class deriving,
// through any depth and across units, from one of them (matched by qualified name or
// a dotted tail of it, as written when unresolved), and the units that
// define those classes' project ancestors; sorted.
func (p *Project) KVUnits(bases []string) []int {
	if len(bases) == 0 {
		return nil
	}
	// Every class once, its bases resolved; then a walk down from the
	// classes that name a KV base to their subclasses, and one up from
	// those to their ancestors.
	type class struct {
		unit int
		c    *Class
		q    string
	}
	var classes []class
	var queue []int
	kv := map[int]bool{}
	sub := map[string][]int{}    // resolved base -> classes listing it
	byName := map[string][]int{} // qualified name -> classes defining it
	for i, u := range p.units {
		if u.File == nil {
			continue
		}
		for ci := range u.File.Classes {
			c := &u.File.Classes[ci]
			k := len(classes)
			cl := class{unit: i, c: c, q: u.Module + "." + c.Name}
			// A base itself is KV code (its MRO starts with it).
			hit := namedIn(bases, cl.q)
			for _, b := range c.Bases {
				q := p.resolveName(i, b)
				sub[q] = append(sub[q], k)
				hit = hit || namedIn(bases, q) || namedIn(bases, b)
			}
			classes = append(classes, cl)
			byName[cl.q] = append(byName[cl.q], k)
			if hit {
				kv[k] = true
				queue = append(queue, k)
			}
		}
	}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, s := range sub[classes[k].q] {
			if !kv[s] {
				kv[s] = true
				queue = append(queue, s)
			}
		}
	}
	need := map[int]bool{}
	seen := map[string]bool{}
	var walk func(k int)
	walk = func(k int) {
		i := classes[k].unit
		need[i] = true
		for _, b := range classes[k].c.Bases {
			q := p.resolveName(i, b) // again: only the few classes walked
			if seen[q] {
				continue
			}
			seen[q] = true
			for _, a := range byName[q] {
				walk(a)
			}
		}
	}
	ks := make([]int, 0, len(kv))
	for k := range kv {
		ks = append(ks, k)
	}
	slices.Sort(ks) // the walk's order does not matter, but keep it fixed
	for _, k := range ks {
		walk(k)
	}
	out := make([]int, 0, len(need))
	for i := range p.units {
		if need[i] {
			out = append(out, i)
		}
	}
	return out
}

// namedIn reports whether qual is one of names or ends with ".name".
func namedIn(names []string, qual string) bool {
	for _, n := range names {
		if n != "" && (qual == n || strings.HasSuffix(qual, "."+n)) {
			return true
		}
	}
	return false
}

// ClassUnits returns, in unit order, the units with a class that match
// accepts by module name and class name.
func (p *Project) ClassUnits(match func(module, class string) bool) []int {
	var out []int
	for i, u := range p.units {
		if u.File == nil {
			continue
		}
		for _, c := range u.File.Classes {
			if match(u.Module, c.Name) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// Defining returns the units that define a class or a module-level
// function with this name, in unit order.
func (p *Project) Defining(name string) []int {
	var out []int
	for i, u := range p.units {
		if u.File == nil {
			continue
		}
		found := slices.Contains(u.File.Funcs, name)
		for _, c := range u.File.Classes {
			found = found || c.Name == name
		}
		if found {
			out = append(out, i)
		}
	}
	return out
}

// Declaring returns the units that declare attribute name on a class (a
// field, or an assignment to self), in unit order.
func (p *Project) Declaring(name string) []int {
	var out []int
	for i, u := range p.units {
		if u.File != nil && slices.Contains(u.File.Attrs, name) {
			out = append(out, i)
		}
	}
	return out
}
