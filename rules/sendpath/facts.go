package sendpath

import (
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Interprocedural facts on send paths. Three things flow between
// functions, each through the names a call binds (the receiver to the
// callee's self, each argument that is an access path to its parameter):
//
//   - entry facts: what holds at a function's start on every send path,
//     the intersection over its send-path call sites of the facts there
//     (checks in callers that dominate the call, and the callers' own
//     entry facts). Outermost entries have none.
//   - post facts: what a callee guarantees whenever it returns normally,
//     on its own (without entry facts): `self.descs` is non-empty after a
//     helper that raises when it is empty. They hold after each call to it.
//   - kills: the self and parameter paths a callee may empty or rebind
//     (pymodel's FuncSummary kills) lose their facts at the call.
//
// Recursion is resolved optimistically: a call site inside a cycle that is
// still being computed does not constrain entry facts, and a recursive
// callee has no post facts. Both lose facts rather than invent them, except
// that ignoring a recursive call site may keep an entry fact a recursive
// path would have killed; rules prefer that (a missed finding) to noise.

// binding maps a path in the caller to one in the callee.
type binding struct {
	caller, callee facts.Path
	self           bool // the receiver, or a closure's shared self
}

type factsState struct {
	post    map[pymodel.FuncRef][]facts.Fact
	entry   map[pymodel.FuncRef][]facts.Fact
	results map[pymodel.FuncRef]*facts.Result
	busy    map[pymodel.FuncRef]bool // being computed (post or entry)
	calls   []map[syntax.NodeID]int32
	opts    []string // wait calls
}

// computeFacts fills p.fs for every function on a send path.
func (p *Paths) computeFacts(waits []string) {
	p.fs = &factsState{
		post:    map[pymodel.FuncRef][]facts.Fact{},
		entry:   map[pymodel.FuncRef][]facts.Fact{},
		results: map[pymodel.FuncRef]*facts.Result{},
		busy:    map[pymodel.FuncRef]bool{},
		calls:   make([]map[syntax.NodeID]int32, len(p.ix.Files)),
		opts:    waits,
	}
	for _, fn := range p.Funcs() {
		p.factsOf(fn)
	}
	p.fs.busy = nil
}

// Facts returns the facts of fn, a function on a send path, with its entry
// facts, callee post facts and callee kills. nil when fn is not on a send
// path or its file was not loaded.
func (p *Paths) Facts(fn pymodel.FuncRef) *facts.Result { return p.fs.results[fn] }

// EntryFacts returns what holds at fn's start on every send path, in fn's
// names (see the comment above), sorted by text.
func (p *Paths) EntryFacts(fn pymodel.FuncRef) []facts.Fact { return p.fs.entry[fn] }

// PostFacts returns what fn guarantees when it returns normally, in its own
// names (its self and parameters). Computed for functions on send paths
// and their callees.
func (p *Paths) PostFacts(fn pymodel.FuncRef) []facts.Fact { return p.fs.post[fn] }

// factsOf computes (memoised) the facts of an on-path function.
func (p *Paths) factsOf(fn pymodel.FuncRef) *facts.Result {
	if r, ok := p.fs.results[fn]; ok {
		return r
	}
	if p.fs.busy[fn] {
		return nil
	}
	p.fs.busy[fn] = true
	defer delete(p.fs.busy, fn)
	ef := p.entryFactsOf(fn)
	r := p.analyze(fn, ef)
	p.fs.results[fn] = r
	return r
}

// entryFactsOf intersects the translated facts at fn's send-path call
// sites.
func (p *Paths) entryFactsOf(fn pymodel.FuncRef) []facts.Fact {
	if ef, ok := p.fs.entry[fn]; ok {
		return ef
	}
	var acc []facts.Fact
	first := true
	for _, site := range p.SendCallers(fn) {
		caller := pymodel.FuncRef{File: site.File, Func: p.ix.Call(site).Func}
		if p.fs.busy[caller] {
			continue // a recursive path: optimistic
		}
		r := p.factsOf(caller)
		var got []facts.Fact
		if r != nil {
			node := p.ix.Call(site).At.Node
			if !r.Reachable(node) {
				continue // dead code calls nothing
			}
			for _, cal := range p.ix.Callees(site) {
				if cal.Func != fn {
					continue
				}
				bs := p.bindings(site, cal)
				got = append(toCallee(r.At(node), bs), argAliases(bs)...)
			}
		}
		if first {
			acc, first = got, false
		} else {
			acc = intersect(acc, got)
		}
	}
	slices.SortFunc(acc, func(a, b facts.Fact) int { return strings.Compare(a.String(), b.String()) })
	acc = slices.Compact(acc)
	p.fs.entry[fn] = acc
	return acc
}

// argAliases: a parameter bound to an access path that the receiver
// reaches (`self._emit(self.descs)`) aliases that path in the callee, so
// checks and uses of either count for both.
func argAliases(bs []binding) []facts.Fact {
	var out []facts.Fact
	for _, b := range bs {
		if b.self {
			continue
		}
		for _, sb := range bs {
			if sb.self && b.caller.HasPrefix(sb.caller) && b.caller != sb.caller {
				other, _ := b.caller.Rebase(sb.caller, sb.callee)
				out = append(out, facts.Fact{Kind: facts.Alias, Path: b.callee, Other: other})
			}
		}
	}
	return out
}

func intersect(a, b []facts.Fact) []facts.Fact {
	var out []facts.Fact
	for _, f := range a {
		if slices.Contains(b, f) {
			out = append(out, f)
		}
	}
	return out
}

// postFactsOf computes (memoised) fn's exit facts without entry facts.
func (p *Paths) postFactsOf(fn pymodel.FuncRef) []facts.Fact {
	if pf, ok := p.fs.post[fn]; ok {
		return pf
	}
	if p.fs.busy[fn] || p.ix.Func(fn).Generator || p.ix.Func(fn).Async {
		return nil // recursive, or its call does not run the body
	}
	p.fs.busy[fn] = true
	defer delete(p.fs.busy, fn)
	var pf []facts.Fact
	if r := p.analyze(fn, nil); r != nil {
		pf = r.AtExit()
	}
	p.fs.post[fn] = pf
	return pf
}

// analyze runs the facts analysis on fn with the interprocedural hooks.
func (p *Paths) analyze(fn pymodel.FuncRef, entry []facts.Fact) *facts.Result {
	f := p.File(fn.File)
	def := p.ix.Func(fn).Def
	if f == nil || f.Tree == nil || def < 0 || int(def) >= f.Tree.Len() {
		return nil
	}
	g := cfg.New(f.Tree, def)
	calls := p.callIndex(fn.File)
	siteOf := func(n syntax.NodeID) (pymodel.CallSite, bool) {
		ci, ok := calls[n]
		return pymodel.CallSite{File: fn.File, Call: ci}, ok
	}
	return facts.Analyze(f.Tree, g, facts.Options{
		EntryFacts: entry,
		WaitCalls:  p.fs.opts,
		CallEffects: func(n syntax.NodeID) []facts.Fact {
			site, ok := siteOf(n)
			if !ok {
				return nil
			}
			return p.callPostFacts(site)
		},
		CallKills: func(n syntax.NodeID) []facts.Path {
			site, ok := siteOf(n)
			if !ok {
				return nil
			}
			return p.callKills(site)
		},
	})
}

// callIndex maps call nodes of a file to their index in its summary.
func (p *Paths) callIndex(file int32) map[syntax.NodeID]int32 {
	if m := p.fs.calls[file]; m != nil {
		return m
	}
	calls := p.ix.Summary(file).Calls
	m := make(map[syntax.NodeID]int32, len(calls))
	for i := range calls {
		m[calls[i].At.Node] = int32(i)
	}
	p.fs.calls[file] = m
	return m
}

// callPostFacts: the facts every project callee of site guarantees on
// return, in the caller's names. A site with an unresolved or external
// callee gets none.
func (p *Paths) callPostFacts(site pymodel.CallSite) []facts.Fact {
	cals := p.ix.Callees(site)
	if len(cals) == 0 || p.ix.Call(site).Await {
		return nil
	}
	var acc []facts.Fact
	for i, cal := range cals {
		if !cal.Func.Valid() {
			return nil
		}
		got := toCaller(p.postFactsOf(cal.Func), p.bindings(site, cal))
		if i == 0 {
			acc = got
		} else {
			acc = intersect(acc, got)
		}
	}
	return acc
}

// callKills: the caller paths a project callee of site may empty or
// rebind, through the receiver and the arguments.
func (p *Paths) callKills(site pymodel.CallSite) []facts.Path {
	var out []facts.Path
	for _, cal := range p.ix.Callees(site) {
		if !cal.Func.Valid() {
			continue
		}
		sum := p.ix.FuncSummary(cal.Func)
		callee := p.ix.Func(cal.Func)
		for _, b := range p.bindings(site, cal) {
			pi := paramIndex(callee, string(b.callee))
			var kills []string
			switch {
			case pi >= 0:
				kills = sum.KillsOn(pi)
			case callee.SelfClass >= 0 && string(b.callee) == SelfName(p.ix, cal.Func):
				kills = sum.SelfKills // a closure over self
			}
			for _, k := range kills {
				if k == "" {
					out = append(out, b.caller)
				} else {
					out = append(out, b.caller+"."+facts.Path(k))
				}
			}
		}
	}
	return out
}

func paramIndex(f *pymodel.Function, name string) int {
	for i := range f.Params {
		if f.Params[i].Name == name {
			return i
		}
	}
	return -1
}

// SelfName is the name `self` has in fn (a method's first parameter, or
// the enclosing method's for a closure), "" when there is none.
func SelfName(ix *pymodel.Index, fn pymodel.FuncRef) string {
	s := ix.Summary(fn.File)
	for g := fn.Func; g >= 0 && int(g) < len(s.Functions); g = s.Functions[g].Parent {
		f := &s.Functions[g]
		if f.Class >= 0 && (f.Kind == pymodel.Method || f.Kind == pymodel.Property || f.Kind == pymodel.ClassMethod) {
			if len(f.Params) > 0 && f.Params[0].Kind == pymodel.Positional {
				return f.Params[0].Name
			}
			return ""
		}
	}
	return ""
}

// bindings lists how the caller's paths at site become the callee's: the
// receiver (or the shared self of a closure), then each argument that is
// an access path.
func (p *Paths) bindings(site pymodel.CallSite, cal pymodel.Callee) []binding {
	ix := p.ix
	if !cal.Func.Valid() {
		return nil
	}
	call := ix.Call(site)
	callee := ix.Func(cal.Func)
	caller := pymodel.FuncRef{File: site.File, Func: call.Func}
	var out []binding
	bound := false
	switch cal.Kind {
	case pymodel.CallMethod, pymodel.CallTyped, pymodel.CallSuper:
		bound = callee.Kind == pymodel.Method || callee.Kind == pymodel.Property || callee.Kind == pymodel.ClassMethod
	}
	if bound && len(callee.Params) > 0 && callee.Params[0].Kind == pymodel.Positional {
		recv := call.Recv
		if cal.Kind == pymodel.CallSuper {
			recv = SelfName(ix, caller)
		}
		if recv != "" {
			out = append(out, binding{facts.Path(recv), facts.Path(callee.Params[0].Name), true})
		}
	} else if cal.Kind == pymodel.CallFunction && callee.SelfClass >= 0 && callee.Parent >= 0 && caller.Func >= 0 {
		// A closure over self: the same self under the same name.
		if s := SelfName(ix, caller); s != "" && s == SelfName(ix, cal.Func) {
			out = append(out, binding{facts.Path(s), facts.Path(s), true})
		}
	}
	args := ix.Args(site)
	for i, pi := range ix.BindArgs(site, cal) {
		a := args[i]
		if pi < 0 || a.Path == "" || a.Star != 0 {
			continue
		}
		prm := callee.Params[pi]
		if prm.Kind == pymodel.VarArgs || prm.Kind == pymodel.VarKw {
			continue
		}
		out = append(out, binding{facts.Path(a.Path), facts.Path(prm.Name), false})
	}
	return out
}

// toCallee rewrites the caller's facts at a call into the callee's names.
// A fact any of whose paths does not translate is dropped.
func toCallee(fs []facts.Fact, bs []binding) []facts.Fact {
	return translate(fs, bs, func(b binding) (src, dst facts.Path, strict bool) { return b.caller, b.callee, false })
}

// toCaller rewrites a callee's exit facts into the caller's names. A
// parameter's own facts stay behind (it may have been rebound to another
// value); facts on its attributes describe the caller's object.
func toCaller(fs []facts.Fact, bs []binding) []facts.Fact {
	return translate(fs, bs, func(b binding) (src, dst facts.Path, strict bool) { return b.callee, b.caller, !b.self })
}

type direction func(binding) (src, dst facts.Path, strict bool)

func translate(fs []facts.Fact, bs []binding, dir direction) []facts.Fact {
	if len(fs) == 0 || len(bs) == 0 {
		return nil
	}
	var out []facts.Fact
	for _, f := range fs {
		// A path may be reachable through several bindings (self.descs via
		// self and via the argument self.descs): each gives a fact.
		for _, b := range bs {
			src, dst, strict := dir(b)
			if !f.Path.HasPrefix(src) || strict && len(f.Path) == len(src) {
				continue
			}
			g := f
			g.Path, _ = f.Path.Rebase(src, dst)
			ok := true
			if f.Key != "" && !f.Key.IsLiteral() {
				g.Key, ok = rebase(f.Key, bs, dir)
			}
			if ok && (f.Kind == facts.Alias || f.Kind == facts.GetOf) {
				g.Other, ok = rebase(f.Other, bs, dir)
			}
			if ok && !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	return out
}

// rebase rewrites x by the longest binding whose source is a prefix of it.
func rebase(x facts.Path, bs []binding, dir direction) (facts.Path, bool) {
	var from, to facts.Path
	found := false
	for _, b := range bs {
		src, dst, strict := dir(b)
		if !x.HasPrefix(src) || strict && len(x) == len(src) {
			continue
		}
		if !found || len(src) > len(from) {
			from, to, found = src, dst, true
		}
	}
	if !found {
		return x, false
	}
	return x.Rebase(from, to)
}
