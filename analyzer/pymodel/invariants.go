package pymodel

import (
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pyname"
)

// Constructor invariants. A constructor that raises when nothing was
// registered (`if not self.kv_mem_descs: raise RuntimeError(...)`) leaves
// its object non-empty for the object's whole life, as long as nothing
// else ever empties or rebinds that state: no object exists whose
// constructor did not return. Such facts hold on entry to every method of
// the class that cannot run before the constructor returns.
//
// Decided over the class family (the class and its project subclasses,
// since a method runs on instances of both):
//   - every member's constructor is a project `__init__` (own or
//     inherited), and the fact holds when each returns normally (its
//     post-facts, which count what its callees guarantee);
//   - a fact is about an attribute path of self (`self.descs`,
//     `self.args.ptrs`: Truthy, NotNone or IsInstance), and no code other
//     than those constructors may rebind, delete or empty any attribute on
//     the path (`x.descs = []`, `x.descs.clear()`, `del x.args`), whatever
//     the receiver, unless that receiver is known to be an object of a
//     class outside the family;
//   - a function that the constructors reach (calls, thread and executor
//     targets they start, lambdas they pass) may run before the check and
//     gets nothing.
//
// Limits: the constructor is analysed with its own class's methods (an
// override in a subclass of a method it calls is not followed); setattr,
// and stores through a local alias of another object, are not seen as
// kills.

type classInvariants struct {
	facts []facts.Fact     // in the names of a self called "self"
	early map[FuncRef]bool // functions that may run while a constructor runs
}

// Invariants returns the facts about fn's self that hold whenever fn runs
// because the constructors established them and nothing undoes them, in
// fn's names (nil for a function without self, or that a constructor
// reaches). It computes constructors' facts on demand, so it must not be
// called from inside a component computation: Guards and rules call it.
func (fl *Flow) Invariants(fn FuncRef) []facts.Fact {
	if !fl.ix.validFunc(fn) {
		return nil
	}
	self, c := fl.ix.SelfOf(fn)
	if self == "" || !c.Valid() {
		return nil
	}
	m := fl.invariants(c)
	if len(m.facts) == 0 || m.early[fn] {
		return nil
	}
	out := make([]facts.Fact, 0, len(m.facts))
	for _, f := range m.facts {
		p, _ := f.Path.Rebase("self", facts.Path(self))
		f.Path = p
		out = append(out, f)
	}
	return out
}

func (fl *Flow) invariants(c ClassRef) *classInvariants {
	return fl.invMemos.Get(c, func() *classInvariants {
		m := &classInvariants{}
		fl.computeInvariants(c, m)
		return m
	})
}

func (fl *Flow) computeInvariants(c ClassRef, m *classInvariants) {
	ix := fl.ix
	members := ix.Family(c)
	var inits []FuncRef
	for _, d := range members {
		init := ix.LookupMethod(d, "__init__").Func
		if !init.Valid() {
			return // an external or default constructor: nothing known
		}
		if !slices.Contains(inits, init) {
			inits = append(inits, init)
		}
	}
	var acc []facts.Fact
	for i, init := range inits {
		self, _ := ix.selfOf(init.File, init.Func)
		var here []facts.Fact
		for _, f := range fl.Post(init) {
			switch f.Kind {
			case facts.Truthy, facts.NotNone, facts.IsInstance:
			default:
				continue
			}
			p, ok := f.Path.Rebase(facts.Path(self), "self")
			if !ok || p == "self" || strings.ContainsRune(string(p), '[') {
				continue
			}
			f.Path = p
			here = append(here, f)
		}
		if i == 0 {
			acc = here
		} else {
			acc = intersectFacts(acc, here)
		}
		if len(acc) == 0 {
			return
		}
	}
	inFamily := map[ClassRef]bool{}
	for _, d := range members {
		for _, b := range ix.MRO(d) {
			if !b.External() {
				inFamily[b.Class] = true
			}
		}
	}
	for _, f := range acc {
		if !fl.undone(f.Path, inits, inFamily) {
			m.facts = append(m.facts, f)
		}
	}
	if len(m.facts) > 0 {
		m.early = fl.reachedFrom(inits)
	}
}

// undone reports whether code other than the constructors may rebind,
// delete or empty an attribute on path (`self.a.b`) of an object of the
// family.
func (fl *Flow) undone(path facts.Path, inits []FuncRef, inFamily map[ClassRef]bool) bool {
	ix := fl.ix
	for _, name := range strings.Split(string(path), ".")[1:] {
		for _, ur := range ix.AttrKills(name) {
			u := ix.Use(ur)
			fn := FuncRef{ur.File, u.Func}
			if u.Func < 0 || slices.Contains(inits, fn) {
				continue
			}
			// The receiver of the attribute: known to be another object?
			root := ""
			if u.Self {
				root, _ = ix.selfOf(ur.File, u.Func)
			} else if f := ix.Func(fn); u.Param >= 0 && int(u.Param) < len(f.Params) {
				root = f.Params[u.Param].Name
			}
			recv := root
			if p := pyname.Parent(u.Path); p != "" {
				recv += "." + p
			}
			if cls, ok := ix.TypeOf(ur.File, u.Func, recv); root != "" && ok && !inFamily[cls] {
				continue
			}
			return true
		}
	}
	return false
}

// reachedFrom lists the functions the constructors may run before they
// return: what they call, the lambdas they pass, and the thread and
// executor targets started by any of those (to a fixed point).
func (fl *Flow) reachedFrom(inits []FuncRef) map[FuncRef]bool {
	ix := fl.ix
	var starts []Start
	for _, f := range inits {
		starts = append(starts, Start{Func: f, Self: NoClass})
	}
	for {
		r := ix.Reachable(starts, ReachOptions{Virtual: true})
		grew := false
		for _, e := range ix.Entries() {
			caller := FuncRef{e.Site.File, ix.Call(e.Site).Func}
			if caller.Func < 0 || !r.Reached(caller) || r.Reached(e.Func) {
				continue
			}
			starts = append(starts, e.Start())
			grew = true
		}
		if !grew {
			out := map[FuncRef]bool{}
			for _, f := range r.Funcs() {
				out[f] = true
			}
			return out
		}
	}
}
