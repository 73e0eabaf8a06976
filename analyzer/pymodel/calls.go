package pymodel

import (
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer/pyname"
)

// CallKind says how a call was resolved.
type CallKind uint8

const (
	CallUnresolved CallKind = iota
	CallFunction            // a function by name: module-level, nested, or imported
	CallMethod              // self.m() / cls.m(): along the MRO of self's class
	CallSuper               // super().m()
	CallStatic              // ClassName.m(...)
	CallTyped               // obj.m() where obj's class is inferred (see Index.TypeOf)
	CallCtor                // ClassName(...): the class's __init__ (Func is NoFunc without one)
	CallExternal            // outside the project (External names it)
)

// Callee is one resolution of a call site. A site has at most one
// non-Virtual callee.
type Callee struct {
	Kind CallKind
	Func FuncRef // the project function called, NoFunc when none
	// Class is the receiver class whose MRO was searched (methods), or the
	// class constructed (CallCtor).
	Class ClassRef
	// External is the external name called (CallExternal), or the first
	// external base that may define a method not found in the project.
	External string
	// Virtual: an override of the method in a subclass of Class, which the
	// call reaches when self is an instance of that subclass.
	Virtual bool
}

// Bound reports whether the callee receives the receiver as its first
// parameter (so positional argument i binds parameter i+1).
func (c Callee) bound(ix *Index) bool {
	if !c.Func.Valid() {
		return false
	}
	k := ix.Func(c.Func).Kind
	switch c.Kind {
	case CallMethod, CallSuper, CallTyped:
		return k == Method || k == Property || k == ClassMethod
	case CallCtor:
		return true
	case CallStatic:
		return k == ClassMethod
	}
	return false
}

// EntryKind says why a function is an entry point.
type EntryKind uint8

const (
	EntryThread   EntryKind = iota + 1 // threading.Thread(target=f), Timer, multiprocessing.Process
	EntryExecutor                      // executor.submit(f, ...), loop.run_in_executor(ex, f, ...)
)

// Entry is a function started as a thread (or submitted to an executor).
type Entry struct {
	Kind EntryKind
	Func FuncRef
	Site CallSite // the Thread(...) / submit(...) call
	// Self is the class of the instance a bound method target runs on
	// (`target=self.worker`), or whose self a nested function target uses;
	// NoClass otherwise.
	Self ClassRef
}

func (ix *Index) resolveCalls() {
	ix.callees = make([][]Callee, len(ix.Files))
	entries := make([][]Entry, len(ix.Files))
	// Per file, in parallel: the callees of each call and the entries.
	// Only the file's own slots are written; the subclass-closure cache is
	// per file so nothing is shared.
	parallelFiles(len(ix.Files), func(fi int) {
		desc := map[ClassRef][]ClassRef{}
		s := ix.Files[fi].Summary
		d := &ix.files[fi]
		d.calleeAt = make([]int32, len(s.Calls)+1)
		out := make([]Callee, 0, len(s.Calls))
		for ci := range s.Calls {
			d.calleeAt[ci] = int32(len(out))
			c := &s.Calls[ci]
			out = ix.resolveRef(int32(fi), c.Func, c.Kind, c.Recv, c.Name, out, desc)
		}
		d.calleeAt[len(s.Calls)] = int32(len(out))
		ix.callees[fi] = slices.Clip(out)
		for ci := range s.Calls {
			entries[fi] = ix.findEntry(CallSite{int32(fi), int32(ci)}, desc, entries[fi])
		}
	})
	// Callers in one array, by callee (counted, then placed): a map of
	// slices grown call by call was most of this function's serial time.
	ix.funcBase = make([]int32, len(ix.Files)+1)
	for fi := range ix.Files {
		ix.funcBase[fi+1] = ix.funcBase[fi] + int32(len(ix.Files[fi].Summary.Functions))
	}
	ix.callerAt = make([]int32, ix.funcBase[len(ix.Files)]+1)
	eachCall := func(visit func(callee int32, site CallSite)) {
		for fi := range ix.Files {
			d := &ix.files[fi]
			for ci := range ix.Files[fi].Summary.Calls {
				for _, cal := range ix.callees[fi][d.calleeAt[ci]:d.calleeAt[ci+1]] {
					if cal.Func.Valid() {
						visit(ix.funcBase[cal.Func.File]+cal.Func.Func, CallSite{int32(fi), int32(ci)})
					}
				}
			}
		}
	}
	eachCall(func(callee int32, _ CallSite) { ix.callerAt[callee+1]++ })
	for i := 1; i < len(ix.callerAt); i++ {
		ix.callerAt[i] += ix.callerAt[i-1]
	}
	ix.callerSites = make([]CallSite, ix.callerAt[len(ix.callerAt)-1])
	fill := slices.Clone(ix.callerAt[:len(ix.callerAt)-1])
	eachCall(func(callee int32, site CallSite) {
		ix.callerSites[fill[callee]] = site
		fill[callee]++
	})
	for fi := range ix.Files {
		ix.entries = append(ix.entries, entries[fi]...)
	}
}

// isLocalName reports a parameter or typed local of fn or of a function
// enclosing it: such a name shadows module-level ones.
func (ix *Index) isLocalName(file, fn int32, name string) bool {
	s := ix.Files[file].Summary
	d := &ix.files[file]
	for g := fn; g >= 0 && int(g) < len(s.Functions); g = s.Functions[g].Parent {
		for i := range s.Functions[g].Params {
			if s.Functions[g].Params[i].Name == name {
				return true
			}
		}
		if _, ok := d.locals[innerKey{g, name}]; ok {
			return true
		}
	}
	return false
}

// resolveRef resolves a callee expression written in function fn and
// appends its callees to out.
func (ix *Index) resolveRef(file, fn int32, kind RefKind, recv, name string, out []Callee, desc map[ClassRef][]ClassRef) []Callee {
	s := ix.Files[file].Summary
	switch kind {
	case RefName:
		if ix.isLocalName(file, fn, name) {
			return out
		}
		return ix.symbolCallee(ix.Resolve(file, fn, name), out)
	case RefSuper:
		self, cls := ix.selfOf(file, fn)
		if cls < 0 {
			return out
		}
		owner := ClassRef{file, cls}
		if recv != "" && recv != self {
			if sym := ix.Resolve(file, fn, recv); sym.Kind == SymClass {
				owner = sym.Class
			}
		}
		m := ix.LookupSuper(ClassRef{file, cls}, owner, name)
		return append(out, Callee{Kind: CallSuper, Func: m.Func, Class: ClassRef{file, cls}, External: first(m.Opaque)})
	case RefAttr:
		self, cls := ix.selfOf(file, fn)
		isCls := false
		if fn >= 0 && int(fn) < len(s.Functions) {
			f := &s.Functions[fn]
			if f.Kind == ClassMethod && len(f.Params) > 0 && f.Params[0].Name == recv && f.Class >= 0 {
				isCls, cls = true, f.Class
			}
		}
		if cls >= 0 && (recv == self || isCls) {
			c := ClassRef{file, cls}
			m := ix.LookupMethod(c, name)
			out = append(out, Callee{Kind: CallMethod, Func: m.Func, Class: c, External: first(m.Opaque)})
			return ix.overrides(c, name, m.Func, out, desc)
		}
		head, _, _ := strings.Cut(recv, ".")
		if !ix.isLocalName(file, fn, head) && head != self {
			sym := ix.Resolve(file, fn, recv)
			switch sym.Kind {
			case SymModule, SymExternal:
				return ix.symbolCallee(ix.member(sym, name, 0), out)
			case SymClass:
				m := ix.LookupMethod(sym.Class, name)
				if !m.Func.Valid() {
					if nested, ok := ix.classes[sym.Name+"."+name]; ok {
						return ix.symbolCallee(Symbol{Kind: SymClass, Class: nested, Name: sym.Name + "." + name}, out)
					}
				}
				return append(out, Callee{Kind: CallStatic, Func: m.Func, Class: sym.Class, External: first(m.Opaque)})
			}
		}
		if c, ok := ix.TypeOf(file, fn, recv); ok {
			m := ix.LookupMethod(c, name)
			return append(out, Callee{Kind: CallTyped, Func: m.Func, Class: c, External: first(m.Opaque)})
		}
	}
	return out
}

func first(s []string) string {
	if len(s) > 0 {
		return s[0]
	}
	return ""
}

func (ix *Index) symbolCallee(sym Symbol, out []Callee) []Callee {
	switch sym.Kind {
	case SymFunc:
		return append(out, Callee{Kind: CallFunction, Func: sym.Func, Class: NoClass})
	case SymClass:
		m := ix.LookupMethod(sym.Class, "__init__")
		return append(out, Callee{Kind: CallCtor, Func: m.Func, Class: sym.Class, External: first(m.Opaque)})
	case SymExternal:
		return append(out, Callee{Kind: CallExternal, Func: NoFunc, Class: NoClass, External: sym.Name})
	}
	return out
}

// overrides appends the methods name of subclasses of c (transitively)
// that override the one found (static), as virtual callees.
func (ix *Index) overrides(c ClassRef, name string, static FuncRef, out []Callee, desc map[ClassRef][]ClassRef) []Callee {
	ds, ok := desc[c]
	if !ok {
		seen := map[ClassRef]bool{c: true}
		queue := []ClassRef{c}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, sub := range ix.subclasses[x] {
				if !seen[sub] {
					seen[sub] = true
					ds = append(ds, sub)
					queue = append(queue, sub)
				}
			}
		}
		desc[c] = ds
	}
	for _, sub := range ds {
		s := ix.Files[sub.File].Summary
		for _, m := range s.Classes[sub.Class].Methods {
			if s.Functions[m].Name == name && (FuncRef{sub.File, m}) != static {
				out = append(out, Callee{Kind: CallMethod, Func: FuncRef{sub.File, m}, Class: sub, Virtual: true})
			}
		}
	}
	return out
}

// Callees returns the resolutions of a call site (none when unresolved).
func (ix *Index) Callees(site CallSite) []Callee {
	d := &ix.files[site.File]
	return ix.callees[site.File][d.calleeAt[site.Call]:d.calleeAt[site.Call+1]]
}

// Callers returns the call sites whose callees include fn.
func (ix *Index) Callers(fn FuncRef) []CallSite {
	if !ix.validFunc(fn) {
		return nil
	}
	g := ix.funcBase[fn.File] + fn.Func
	return ix.callerSites[ix.callerAt[g]:ix.callerAt[g+1]:ix.callerAt[g+1]]
}

// Entries returns the thread and executor entry points found, in file
// and call order.
func (ix *Index) Entries() []Entry { return ix.entries }

var threadCtors = map[string]string{ // external callee -> target keyword
	"threading.Thread":        "target",
	"threading.Timer":         "function",
	"multiprocessing.Process": "target",
}

// findEntry appends the entry started by a call to threading.Thread and
// friends (or submitted to an executor).
func (ix *Index) findEntry(site CallSite, desc map[ClassRef][]ClassRef, out []Entry) []Entry {
	c := ix.Call(site)
	kw, kind := "", EntryKind(0)
	pos := int16(1) // Thread(group, target), Timer(interval, function)
	for _, cal := range ix.Callees(site) {
		if k, ok := threadCtors[cal.External]; ok && cal.Kind == CallExternal {
			kw, kind = k, EntryThread
		}
	}
	if kind == 0 && c.Kind == RefName && c.Name == "Thread" && len(ix.Callees(site)) == 0 {
		kw, kind = "target", EntryThread
	}
	if kind == 0 && c.Kind == RefAttr {
		switch c.Name {
		case "submit":
			kind, pos = EntryExecutor, 0
		case "run_in_executor":
			kind, pos = EntryExecutor, 1
		}
	}
	if kind == 0 {
		return out
	}
	for _, a := range ix.Args(site) {
		if !(kw != "" && a.Keyword == kw || a.Keyword == "" && a.Index == pos) {
			continue
		}
		if a.Lambda >= 0 {
			fn := FuncRef{site.File, a.Lambda}
			self := NoClass
			if sc := ix.Func(fn).SelfClass; sc >= 0 {
				self = ClassRef{site.File, sc}
			}
			return append(out, Entry{Kind: kind, Func: fn, Site: site, Self: self})
		}
		if a.Path == "" {
			return out
		}
		recv, name := pyname.Parent(a.Path), pyname.Last(a.Path)
		rk := RefAttr
		if recv == "" {
			rk = RefName
		}
		// `target=self.run` runs whatever run the instance's class has: the
		// method found on self's class and, virtually, each override in a
		// subclass (a base class starting a thread on a hook its subclasses
		// define), each on instances of the class that defines it.
		for _, cal := range ix.resolveRef(site.File, c.Func, rk, recv, name, nil, desc) {
			if !cal.Func.Valid() || cal.Virtual && cal.Kind != CallMethod {
				continue
			}
			self := NoClass
			if cal.Kind == CallMethod || cal.Kind == CallTyped {
				self = cal.Class
			} else if sc := ix.Func(cal.Func).SelfClass; sc >= 0 {
				self = ClassRef{cal.Func.File, sc} // a closure over self
			}
			out = append(out, Entry{Kind: kind, Func: cal.Func, Site: site, Self: self})
		}
		return out
	}
	return out
}

// Start is where a reachability search begins: a function and, for a
// method, the class of the instance it runs on: its own class or a
// subclass (NoClass: its own class).
type Start struct {
	Func FuncRef
	Self ClassRef
}

// Start is where a search from the entry begins.
func (e Entry) Start() Start { return Start{Func: e.Func, Self: e.Self} }

// ReachOptions tune Reachable.
type ReachOptions struct {
	// Virtual also follows self-calls into overrides in subclasses of the
	// instance's class (class hierarchy analysis). Off, a self-call goes to
	// the method the instance's own class resolves.
	Virtual bool
	// Within, when set, bounds the search: a function it rejects is not
	// reached (nor what it calls).
	Within func(FuncRef) bool
}

// Step is one hop of a call chain: Func reached through the call Site
// (Site.File is -1 for the entry itself).
type Step struct {
	Site CallSite
	Func FuncRef
}

// Reach is the result of Reachable.
type Reach struct {
	ix    *Index
	order []FuncRef
	prev  map[FuncRef]Step // how each function was first reached: the site and the caller
}

type reachState struct {
	fn   FuncRef
	self ClassRef
}

// Reachable computes the functions reachable from starts through the call
// graph, breadth first, so each function's chain is a shortest one.
//
// Self-calls are resolved in context: a method reached on an instance of
// class X resolves `self.m()` along X's MRO (so a base-class method calling
// a hook reaches the subclass's hook), and `super().m()` from the class
// after the method's own in X's MRO. Lambdas passed as arguments in a
// reached function count as reached (they are usually called back).
func (ix *Index) Reachable(starts []Start, opts ReachOptions) *Reach {
	r := &Reach{ix: ix, prev: map[FuncRef]Step{}}
	seen := map[reachState]bool{}
	var queue []reachState
	visit := func(st reachState, via Step) {
		if !st.fn.Valid() || seen[st] || opts.Within != nil && !opts.Within(st.fn) {
			return
		}
		seen[st] = true
		if _, ok := r.prev[st.fn]; !ok {
			r.prev[st.fn] = via
			r.order = append(r.order, st.fn)
		}
		queue = append(queue, st)
	}
	for _, s := range starts {
		if !ix.validFunc(s.Func) {
			continue
		}
		// A Self that is not the function's class or a subclass of it (a
		// zero ClassRef left in by mistake, say) means the function's own.
		self := ix.ownClass(s.Func)
		if ix.validClass(s.Self) && ix.isSubclass(s.Self, self) {
			self = s.Self
		}
		visit(reachState{s.Func, self}, Step{Site: CallSite{-1, -1}, Func: NoFunc})
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		g := ix.Func(st.fn)
		for _, ci := range ix.files[st.fn.File].funcCalls.of(st.fn.Func) {
			site := CallSite{st.fn.File, ci}
			via := Step{Site: site, Func: st.fn}
			call := ix.Call(site)
			for _, cal := range ix.Callees(site) {
				switch {
				case cal.Kind == CallMethod && !cal.Virtual && st.self.Valid() && st.self != cal.Class:
					m := ix.LookupMethod(st.self, call.Name)
					visit(reachState{m.Func, st.self}, via)
				case cal.Kind == CallMethod && cal.Virtual:
					if opts.Virtual && ix.isSubclass(cal.Class, st.self) {
						visit(reachState{cal.Func, cal.Class}, via)
					}
				case cal.Kind == CallMethod:
					visit(reachState{cal.Func, st.self}, via)
				case cal.Kind == CallSuper && st.self.Valid() && g.SelfClass >= 0:
					m := ix.LookupSuper(st.self, ClassRef{st.fn.File, g.SelfClass}, call.Name)
					visit(reachState{m.Func, st.self}, via)
				case cal.Kind == CallSuper:
					visit(reachState{cal.Func, cal.Class}, via)
				case cal.Kind == CallFunction:
					self := NoClass
					if cal.Func.Valid() && ix.Func(cal.Func).SelfClass >= 0 {
						self = st.self // a closure over self
					}
					visit(reachState{cal.Func, self}, via)
				case cal.Func.Valid():
					visit(reachState{cal.Func, cal.Class}, via)
				}
			}
			for _, a := range ix.Args(site) {
				if a.Lambda >= 0 {
					visit(reachState{FuncRef{st.fn.File, a.Lambda}, st.self}, via)
				}
			}
		}
	}
	return r
}

// ownClass is the class a method belongs to, NoClass for other functions.
func (ix *Index) ownClass(fn FuncRef) ClassRef {
	if !fn.Valid() {
		return NoClass
	}
	if c := ix.Func(fn).SelfClass; c >= 0 {
		return ClassRef{fn.File, c}
	}
	return NoClass
}

// isSubclass reports whether sub is c or derives from it (project MRO).
func (ix *Index) isSubclass(sub, c ClassRef) bool {
	if !sub.Valid() || !c.Valid() {
		return false
	}
	for _, b := range ix.MRO(sub) {
		if b.Class == c {
			return true
		}
	}
	return false
}

// Merge adds to r the functions o reaches that r does not, with the call
// by which o reached them (a chain through a function both reach follows
// r from there on, still a chain from a start).
func (r *Reach) Merge(o *Reach) {
	for _, fn := range o.order {
		if _, ok := r.prev[fn]; !ok {
			r.prev[fn] = o.prev[fn]
			r.order = append(r.order, fn)
		}
	}
}

// Reached reports whether fn is reachable.
func (r *Reach) Reached(fn FuncRef) bool {
	_, ok := r.prev[fn]
	return ok
}

// Funcs lists the reachable functions in breadth-first order.
func (r *Reach) Funcs() []FuncRef { return r.order }

// Chain returns a shortest call chain to fn: the entry first (Site.File
// -1), then each call site and the function it reaches, ending with fn.
// It is nil when fn is not reachable.
func (r *Reach) Chain(fn FuncRef) []Step {
	if !r.Reached(fn) {
		return nil
	}
	var rev []Step
	cur := fn
	for i := 0; i <= len(r.order); i++ { // bounded: a chain visits each function once
		p := r.prev[cur]
		rev = append(rev, Step{Site: p.Site, Func: cur})
		if !p.Func.Valid() {
			break
		}
		cur = p.Func
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// BindArgs maps each argument of a call site to the parameter of callee it
// binds (index into Params), -1 when none does (or for *args/**kwargs
// splats, which bind unknown parameters).
func (ix *Index) BindArgs(site CallSite, cal Callee) []int {
	return ix.bindArgs(site, cal, nil)
}

func (ix *Index) bindArgs(site CallSite, cal Callee, buf []int) []int {
	args := ix.Args(site)
	out := slices.Grow(buf[:0], len(args))[:len(args)]
	if !cal.Func.Valid() {
		for i := range out {
			out[i] = -1
		}
		return out
	}
	params := ix.Func(cal.Func).Params
	shift := 0
	if cal.bound(ix) {
		shift = 1
	}
	for i, a := range args {
		out[i] = -1
		switch {
		case a.Star != 0:
		case a.Keyword != "":
			for pi := range params {
				if params[pi].Name == a.Keyword && params[pi].Kind != VarArgs && params[pi].Kind != VarKw {
					out[i] = pi
				}
			}
			if out[i] < 0 {
				for pi := range params {
					if params[pi].Kind == VarKw {
						out[i] = pi
					}
				}
			}
		default:
			want := int(a.Index) + shift
			for pi := range params {
				if params[pi].Kind == Positional && int(params[pi].Index) == want {
					out[i] = pi
				}
			}
			if out[i] < 0 {
				for pi := range params {
					if params[pi].Kind == VarArgs {
						out[i] = pi
					}
				}
			}
		}
	}
	return out
}
