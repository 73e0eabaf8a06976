package pymodel

import (
	"strings"
	"sync"

	"github.com/sglint/sglint/analyzer/pyname"
)

// attrNames indexes attribute names across the project, for rules that
// meet a value whose class is unknown (read from an untyped table, say)
// and look its attribute up by name. Built on first use.
type attrNames struct {
	once    sync.Once
	decls   map[string][]ClassRef
	assigns map[string][]UseRef
	kills   map[string][]UseRef // assignments, deletions, emptying mutations
	through map[string][]UseRef // every use of `root.a.name` (an attribute of another object)
}

// AttrDeclarers returns the project classes that declare attribute name
// themselves: a field of the class body (dataclass fields included) or an
// assignment `self.name = ...` in one of their own methods. Inherited
// declarations are not repeated for subclasses. In file and class order.
func (ix *Index) AttrDeclarers(name string) []ClassRef {
	ix.buildAttrNames()
	return ix.byAttr.decls[name]
}

// AttrAssigns returns every recorded assignment to an attribute called
// name, whatever its receiver: `self.name = v`, `self.a.name = v`,
// `p.name = v` for a parameter p (see AttrUse for which roots are
// recorded). In file and use order.
func (ix *Index) AttrAssigns(name string) []UseRef {
	ix.buildAttrNames()
	return ix.byAttr.assigns[name]
}

// AttrKills returns every recorded use that may leave an attribute called
// name empty or None, whatever its receiver: assignments, deletions and
// emptying mutations (`x.name.clear()`, `del x.name[k]`). In file and use
// order.
func (ix *Index) AttrKills(name string) []UseRef {
	ix.buildAttrNames()
	return ix.byAttr.kills[name]
}

// AttrUsesThrough returns every recorded use of an attribute called name
// of an object reached through another attribute (`self.kv_mgr.name`,
// `p.a.name`), whatever its kind. In file and use order.
func (ix *Index) AttrUsesThrough(name string) []UseRef {
	ix.buildAttrNames()
	return ix.byAttr.through[name]
}

func (ix *Index) buildAttrNames() {
	ix.byAttr.once.Do(func() {
		decls := map[string][]ClassRef{}
		assigns := map[string][]UseRef{}
		kills := map[string][]UseRef{}
		through := map[string][]UseRef{}
		for fi := range ix.Files {
			s := ix.Files[fi].Summary
			for ci := range s.Classes {
				c := ClassRef{int32(fi), int32(ci)}
				seen := map[string]bool{}
				add := func(n string) {
					if !seen[n] {
						seen[n] = true
						decls[n] = append(decls[n], c)
					}
				}
				for _, f := range s.Classes[ci].Fields {
					add(f.Name)
				}
				for _, p := range sortedKeys(ix.files[fi].classUses[ci]) {
					if strings.ContainsRune(p, '.') || p == "" {
						continue
					}
					for _, ui := range ix.files[fi].classUses[ci][p] {
						if s.Uses[ui].Kind == Assign {
							add(p)
							break
						}
					}
				}
			}
			for ui := range s.Uses {
				u := &s.Uses[ui]
				if u.Path == "" {
					continue
				}
				n := pyname.Last(u.Path)
				if u.Kind == Assign {
					assigns[n] = append(assigns[n], UseRef{int32(fi), int32(ui)})
				}
				if isKill(u) {
					kills[n] = append(kills[n], UseRef{int32(fi), int32(ui)})
				}
				if strings.ContainsRune(u.Path, '.') {
					through[n] = append(through[n], UseRef{int32(fi), int32(ui)})
				}
			}
		}
		ix.byAttr.decls, ix.byAttr.assigns, ix.byAttr.kills, ix.byAttr.through = decls, assigns, kills, through
	})
}

// HasAttrs reports whether instances of c have every attribute in names:
// declared or assigned in c or a project base, or a method. Duck typing
// for a value of unknown class: the candidates for it are the classes
// that have all the attributes code uses on it.
func (ix *Index) HasAttrs(c ClassRef, names []string) bool {
	for _, a := range names {
		info := ix.Attr(c, a)
		if len(info.Assigns) == 0 && info.Annotation == "" && !ix.LookupMethod(c, a).Func.Valid() {
			return false
		}
	}
	return true
}
