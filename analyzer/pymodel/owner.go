package pymodel

import "strings"

// OwnerOf resolves the object an attribute path reads through: for
// `self.kv_mgr.table` in fn it returns the class of `self.kv_mgr` (from
// annotations and constructor assignments, `self.kv_mgr = mgr` with `mgr:
// Manager`, see TypeOf) and "table"; for `self.table`, fn's self class.
// Senders and receivers hold their manager this way, and read its tables
// and registration state through it. false when the path has no
// attribute, or the object's class is not known.
func (ix *Index) OwnerOf(fn FuncRef, dotted string) (ClassRef, string, bool) {
	if !ix.validFunc(fn) {
		return NoClass, "", false
	}
	i := strings.LastIndexByte(dotted, '.')
	if i <= 0 || i == len(dotted)-1 || strings.ContainsAny(dotted, "[]() ") {
		return NoClass, "", false
	}
	c, ok := ix.TypeOf(fn.File, fn.Func, dotted[:i])
	if !ok {
		return NoClass, "", false
	}
	return c, dotted[i+1:], true
}

// Family is c, then its project subclasses (transitively), in a stable
// order: the classes whose instances run c's methods.
func (ix *Index) Family(c ClassRef) []ClassRef {
	out := []ClassRef{c}
	seen := map[ClassRef]bool{c: true}
	for i := 0; i < len(out); i++ {
		for _, sub := range ix.Subclasses(out[i]) {
			if !seen[sub] {
				seen[sub] = true
				out = append(out, sub)
			}
		}
	}
	return out
}

// ctorArgType is the class of the value constructor init receives as its
// parameter pi when an instance of c is built: the most derived annotation
// that names a project class among the parameters carrying the value down
// the chain of `super().__init__(...)` (or `Base.__init__(self, ...)`)
// calls from c's own constructor. A sender built by
// `MooncakeKVSender.__init__(self, mgr: MooncakeKVManager, ...)`, which
// passes mgr on to its base's `self.kv_mgr = mgr` (annotated with the
// common manager class), holds a MooncakeKVManager. The call graph is not
// used: this runs while calls are resolved.
func (ix *Index) ctorArgType(c ClassRef, init FuncRef, pi int) (ClassRef, bool) {
	best, found := ix.paramClass(init, pi)
	type hop struct {
		fn   FuncRef
		site CallSite // its call of the next constructor down
	}
	var chain []hop
	cur := ix.LookupMethod(c, "__init__").Func
	for depth := 0; cur.Valid() && cur != init; depth++ {
		if depth > 8 {
			return best, found
		}
		next, site, ok := ix.superInit(c, cur)
		if !ok {
			return best, found
		}
		chain = append(chain, hop{cur, site})
		cur = next
	}
	if cur != init {
		return best, found
	}
	// Up from init: which parameter of each constructor carries the value.
	param, below := pi, init
	for i := len(chain) - 1; i >= 0; i-- {
		h := chain[i]
		kind := CallSuper
		if ix.Call(h.site).Kind != RefSuper {
			kind = CallStatic // Base.__init__(self, ...): self is passed
		}
		arg := -1
		for ai, p := range ix.bindArgs(h.site, Callee{Kind: kind, Func: below}, nil) {
			if p == param {
				arg = ai
			}
		}
		if arg < 0 {
			break
		}
		name := ix.Args(h.site)[arg].Path
		param = -1
		for qi, q := range ix.Func(h.fn).Params {
			if q.Name == name && name != "" {
				param = qi
			}
		}
		if param < 0 {
			break
		}
		if t, ok := ix.paramClass(h.fn, param); ok {
			best, found = t, true
		}
		below = h.fn
	}
	return best, found
}

// superInit finds, in constructor fn run for an instance of c, the call of
// the next constructor along c's MRO: `super().__init__(...)` or
// `Base.__init__(self, ...)`.
func (ix *Index) superInit(c ClassRef, fn FuncRef) (FuncRef, CallSite, bool) {
	own := ix.Func(fn).Class
	if own < 0 {
		return NoFunc, CallSite{}, false
	}
	for _, ci := range ix.files[fn.File].funcCalls.of(fn.Func) {
		site := CallSite{fn.File, ci}
		call := ix.Call(site)
		if call.Name != "__init__" {
			continue
		}
		switch call.Kind {
		case RefSuper:
			m := ix.LookupSuper(c, ClassRef{fn.File, own}, "__init__")
			return m.Func, site, m.Func.Valid()
		case RefAttr:
			if sym := ix.Resolve(fn.File, fn.Func, call.Recv); sym.Kind == SymClass {
				m := ix.LookupMethod(sym.Class, "__init__")
				return m.Func, site, m.Func.Valid()
			}
		}
	}
	return NoFunc, CallSite{}, false
}

// paramClass is the project class parameter pi of fn is annotated with.
func (ix *Index) paramClass(fn FuncRef, pi int) (ClassRef, bool) {
	ps := ix.Func(fn).Params
	if pi < 0 || pi >= len(ps) || ps[pi].Annotation == "" {
		return NoClass, false
	}
	return ix.ResolveType(fn.File, fn.Func, ps[pi].Annotation)
}
