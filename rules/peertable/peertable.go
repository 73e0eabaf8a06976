// Package peertable finds peer tables: dict attributes of a class that the
// class's methods fill by key (`self.peers[name] = info`) and look up by
// key, the shape SGL003 and SGL004 reason about.
//
// An attribute is a table of class C when, over C, its project bases and
// its project subclasses (one object may run methods of all of them):
//   - every assignment to it (and every class-body value) is an empty dict
//     whose missing keys raise: `{}`, `dict()`, `OrderedDict()`. A
//     `defaultdict(...)` never raises on a subscript and an attribute that
//     is sometimes something else is not understood, so neither is a table;
//   - some method writes it by key: `self.T[k] = v` or `self.T.setdefault(k, v)`,
//     or does so through an attribute holding such an object (a receiver's
//     `self.kv_mgr.T[k] = v`, see pymodel.Index.OwnerOf).
//
// Whether send paths read the table is the rules' business (rules/sendpath).
package peertable

import (
	"iter"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer/pymodel"
)

// Table is one peer table of a class family.
type Table struct {
	Attr string
	// Inits are the assignments (and class-body values) that create it.
	Inits []pymodel.AttrSite
	// Writes are the by-key stores, Uses every use of `self.<Attr>` (writes
	// included) in the methods of the family, in index order.
	Writes []pymodel.UseRef
	Uses   []pymodel.UseRef
}

// Finder answers table queries on one project index and remembers the
// answers. It is not safe for concurrent use: make one per goroutine (per
// pass).
type Finder struct {
	ix   *pymodel.Index
	memo map[key]*Table
}

type key struct {
	class pymodel.ClassRef
	attr  string
}

// New returns a Finder over ix.
func New(ix *pymodel.Index) *Finder {
	return &Finder{ix: ix, memo: map[key]*Table{}}
}

// Lookup returns the table attr of instances of class c, or nil when attr
// is not a table of c (see the package comment).
func (f *Finder) Lookup(c pymodel.ClassRef, attr string) *Table {
	if !c.Valid() || attr == "" || strings.ContainsAny(attr, ".[") {
		return nil
	}
	k := key{c, attr}
	if t, ok := f.memo[k]; ok {
		return t
	}
	t := f.find(c, attr)
	f.memo[k] = t
	return t
}

// SelfUse is a use of a peer table through self in one function: of
// self's own table (`self.peers`), or of one held by an object self
// refers to (`self.kv_mgr.peers`, see pymodel.Index.OwnerOf).
type SelfUse struct {
	Use   *pymodel.AttrUse
	Func  pymodel.FuncRef  // the function holding the use
	Self  string           // the name of its self
	Class pymodel.ClassRef // the class whose table it is
	Table *Table
}

// FileUses yields, in summary order, the uses in file of self attribute
// paths of the given kind and op whose last attribute is a peer table of
// the class that holds it (self's class, or the class of a typed
// attribute on the way). It reads only the index: rules decide when to
// parse the tree.
func (f *Finder) FileUses(file int32, kind pymodel.UseKind, op pymodel.UseOp) iter.Seq[SelfUse] {
	return func(yield func(SelfUse) bool) {
		sum := f.ix.Summary(file)
		for ui := range sum.Uses {
			u := &sum.Uses[ui]
			if !u.Self || u.Kind != kind || u.Op != op || u.Func < 0 {
				continue
			}
			var ok bool
			fn := pymodel.FuncRef{File: file, Func: u.Func}
			self, cls := f.ix.SelfOf(fn)
			if !cls.Valid() {
				continue
			}
			attr := u.Path
			if strings.ContainsRune(attr, '.') {
				if cls, attr, ok = f.ix.OwnerOf(fn, self+"."+u.Path); !ok {
					continue
				}
			}
			tab := f.Lookup(cls, attr)
			if tab == nil {
				continue
			}
			if !yield(SelfUse{Use: u, Func: fn, Self: self, Class: cls, Table: tab}) {
				return
			}
		}
	}
}

// FuncUses yields, in summary order, the uses of peer tables through self
// in function fn, of any kind (see FileUses).
func (f *Finder) FuncUses(fn pymodel.FuncRef) iter.Seq[SelfUse] {
	return func(yield func(SelfUse) bool) {
		sum := f.ix.Summary(fn.File)
		self, cls := f.ix.SelfOf(fn)
		if !cls.Valid() {
			return
		}
		for ui := range sum.Uses {
			u := &sum.Uses[ui]
			if !u.Self || u.Func != fn.Func || u.Path == "" {
				continue
			}
			c, attr := cls, u.Path
			if strings.ContainsRune(attr, '.') {
				var ok bool
				if c, attr, ok = f.ix.OwnerOf(fn, self+"."+u.Path); !ok {
					continue
				}
			}
			tab := f.Lookup(c, attr)
			if tab == nil {
				continue
			}
			if !yield(SelfUse{Use: u, Func: fn, Self: self, Class: c, Table: tab}) {
				return
			}
		}
	}
}

func (f *Finder) find(c pymodel.ClassRef, attr string) *Table {
	ix := f.ix
	t := &Table{Attr: attr}
	seenUse := map[pymodel.UseRef]bool{}
	seenSite := map[pymodel.AttrSite]bool{}
	members := ix.Family(c)
	for _, member := range members {
		info := ix.Attr(member, attr)
		for _, site := range info.Assigns {
			if seenSite[site] {
				continue
			}
			seenSite[site] = true
			if !raisingEmptyDict(ix, site) {
				return nil
			}
			t.Inits = append(t.Inits, site)
		}
		for _, u := range ix.SelfUses(member, attr) {
			if seenUse[u] {
				continue
			}
			seenUse[u] = true
			t.Uses = append(t.Uses, u)
			use := ix.Use(u)
			if writesByKey(use) {
				t.Writes = append(t.Writes, u)
			}
		}
	}
	// Uses through other objects that hold one of the family (a sender's
	// `self.kv_mgr.table[k] = v`): the object's class, or a base of it
	// (the sender may be typed with the common manager class).
	holders := map[pymodel.ClassRef]bool{}
	for _, member := range members {
		for _, b := range ix.MRO(member) {
			if !b.External() {
				holders[b.Class] = true
			}
		}
	}
	for _, u := range ix.AttrUsesThrough(attr) {
		use := ix.Use(u)
		if seenUse[u] || !use.Self || use.Func < 0 {
			continue
		}
		fn := pymodel.FuncRef{File: u.File, Func: use.Func}
		self, _ := ix.SelfOf(fn)
		owner, name, ok := ix.OwnerOf(fn, self+"."+use.Path)
		if !ok || name != attr || !holders[owner] {
			continue
		}
		seenUse[u] = true
		switch {
		case use.Kind == pymodel.Assign:
			if use.Value != pymodel.ValueEmptyDict || isDefaultDict(use.Ref) {
				return nil // sometimes something else
			}
		case writesByKey(use):
			t.Writes = append(t.Writes, u)
		}
		t.Uses = append(t.Uses, u)
	}
	if len(t.Inits) == 0 || len(t.Writes) == 0 {
		return nil
	}
	less := func(a, b pymodel.UseRef) int {
		if a.File != b.File {
			return int(a.File - b.File)
		}
		return int(a.Use - b.Use)
	}
	slices.SortFunc(t.Uses, less)
	slices.SortFunc(t.Writes, less)
	return t
}

// raisingEmptyDict reports an assignment or class-body value that is an
// empty dict whose subscripts raise KeyError.
func raisingEmptyDict(ix *pymodel.Index, site pymodel.AttrSite) bool {
	if site.Field >= 0 {
		fd := &ix.Class(site.Class).Fields[site.Field]
		return fd.Value == pymodel.ValueEmptyDict && !isDefaultDict(calleeOf(fd.ValueText))
	}
	u := ix.Use(site.Use)
	return u.Value == pymodel.ValueEmptyDict && !isDefaultDict(u.Ref)
}

// calleeOf is the callee text of a call written as text ("defaultdict(list)").
func calleeOf(text string) string {
	if i := strings.IndexByte(text, '('); i >= 0 {
		return strings.TrimSpace(text[:i])
	}
	return ""
}

// writesByKey: `T[k] = v` or `T.setdefault(k, v)`.
func writesByKey(use *pymodel.AttrUse) bool {
	return use.Kind == pymodel.Mutate && (use.Op == pymodel.MutSetItem || use.Op == pymodel.MutSetdefault)
}

func isDefaultDict(callee string) bool {
	return callee == "defaultdict" || strings.HasSuffix(callee, ".defaultdict")
}
