package prescan

import (
	"strings"
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
	units    []Unit
	byModule map[string]int
	// classes maps a qualified class name to the units defining it.
	classes map[string][]int
}

// NewProject indexes units (the first unit of a module name wins, as in
// the project model).
func NewProject(units []Unit) *Project {
	p := &Project{units: units, byModule: make(map[string]int, len(units)), classes: map[string][]int{}}
	for i, u := range units {
		if _, dup := p.byModule[u.Module]; !dup {
			p.byModule[u.Module] = i
		}
	}
	for i, u := range units {
		if u.File == nil {
			continue
		}
		for _, c := range u.File.Classes {
			q := u.Module + "." + c.Name
			p.classes[q] = append(p.classes[q], i)
		}
	}
	return p
}

// ModuleOf returns the unit of a module name.
func (p *Project) ModuleOf(module string) (int, bool) {
	i, ok := p.byModule[module]
	return i, ok
}

// absolute resolves an import's module against unit i.
func (p *Project) absolute(i int, imp Import) string {
	if imp.Level == 0 {
		return imp.Module
	}
	u := p.units[i]
	parts := strings.Split(u.Module, ".")
	if !u.IsPackage {
		parts = parts[:len(parts)-1]
	}
	up := imp.Level - 1
	if up > len(parts) {
		return imp.Module
	}
	base := strings.Join(parts[:len(parts)-up], ".")
	switch {
	case base == "":
		return imp.Module
	case imp.Module == "":
		return base
	}
	return base + "." + imp.Module
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
			q := p.absolute(i, imp)
			switch {
			case imp.Member != "":
				q += "." + imp.Member
			case imp.Name == strings.SplitN(imp.Module, ".", 2)[0]:
				q = imp.Name // `import a.b` binds a
			}
			if rest != "" {
				q += "." + rest
			}
			return q
		}
	}
	return p.units[i].Module + "." + dotted
}

// Imported lists the project units that unit i imports (modules, and the
// modules of imported members; a member that is itself a submodule counts
// as that submodule), in import order.
func (p *Project) Imported(i int) []int {
	f := p.units[i].File
	if f == nil {
		return nil
	}
	var out []int
	seen := map[int]bool{i: true}
	add := func(mod string) {
		if j, ok := p.byModule[mod]; ok && !seen[j] {
			seen[j] = true
			out = append(out, j)
		}
	}
	for _, imp := range f.Imports {
		mod := p.absolute(i, imp)
		add(mod)
		if imp.Member != "" && imp.Member != "*" {
			add(mod + "." + imp.Member)
		}
	}
	return out
}

// KVUnits returns the units that define a class deriving, through any
// depth and across units, from one of bases (matched by qualified name or
// a dotted tail of it, as written when unresolved), and the units that
// define those classes' project ancestors; sorted.
func (p *Project) KVUnits(bases []string) []int {
	if len(bases) == 0 {
		return nil
	}
	type key struct{ unit, class int }
	kv := map[key]bool{}
	// Fixpoint: a class is KV when one of its bases names a KV base or
	// resolves to a KV class.
	kvNames := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for i, u := range p.units {
			if u.File == nil {
				continue
			}
			for ci, c := range u.File.Classes {
				k := key{i, ci}
				if kv[k] {
					continue
				}
				for _, b := range c.Bases {
					q := p.resolveName(i, b)
					if namedIn(bases, q) || namedIn(bases, b) || kvNames[q] {
						kv[k] = true
						kvNames[u.Module+"."+c.Name] = true
						changed = true
						break
					}
				}
			}
		}
	}
	need := map[int]bool{}
	var walk func(i int, c Class)
	seen := map[string]bool{}
	walk = func(i int, c Class) {
		need[i] = true
		for _, b := range c.Bases {
			q := p.resolveName(i, b)
			if seen[q] {
				continue
			}
			seen[q] = true
			for _, j := range p.classes[q] {
				for _, a := range p.units[j].File.Classes {
					if p.units[j].Module+"."+a.Name == q {
						walk(j, a)
					}
				}
			}
		}
	}
	for k := range kv {
		walk(k.unit, p.units[k.unit].File.Classes[k.class])
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
