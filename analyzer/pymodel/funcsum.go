package pymodel

import (
	"slices"
	"strings"
	"sync"
)

// FuncSummary is what a function does, as seen by its callers, computed
// bottom-up over the call graph (strongly connected components iterated
// to a fixed point). Only non-virtual project callees are followed.
type FuncSummary struct {
	// SelfWrites are the self attribute paths the function assigns,
	// mutates or deletes, itself or through what it calls on self (self
	// calls, super calls, closures, self passed as an argument), sorted.
	SelfWrites []string
	// ParamWrites[i] are the paths written on parameter i (index into
	// Params): "" for the object itself mutated (`lst.append`), "a" for
	// `p.a = v`, through callees the parameter is passed to or whose method
	// is called on it too. For a method's self it equals SelfWrites.
	ParamWrites [][]string
	// SelfKills and ParamKills are the subsets of SelfWrites and
	// ParamWrites that may leave a path empty or None: rebinding it,
	// deleting it, or clear/pop/remove/discard/popitem/del x[k] on it. The
	// others (append, x[k] = v, ...) cannot empty a container. Callers'
	// facts about these paths die at the call.
	SelfKills  []string
	ParamKills [][]string
	// Escapes are the exceptions that may leave the function: raised in it
	// or in a callee and not caught by an enclosing handler that does not
	// re-raise. At most maxEscapes, in discovery order.
	Escapes []Escape
	// MayReturnNone: a path returns None (bare return, `return None`, a
	// None-armed conditional, running off the end, or returning the result
	// of a callee that may return None). False for generators and stubs.
	MayReturnNone bool
	// Recursive: the function is in a call cycle (its summary is a fixed
	// point, not a plain composition).
	Recursive bool
}

// Escape is an exception that can leave a function.
type Escape struct {
	Type  string   // qualified class (see Index.ExceptionName)
	Raise RaiseRef // the raise statement it starts from
}

const (
	maxPaths   = 64
	maxEscapes = 32
)

// FuncSummary returns the summary of fn, computing it (and its callees')
// on first use. Safe for concurrent use.
func (ix *Index) FuncSummary(fn FuncRef) *FuncSummary {
	if ix.validFunc(fn) {
		ix.ensureSummary(fn)
	}
	return &ix.funcSums[fn.File][fn.Func]
}

// summarySoFar is fn's summary while its component is being computed:
// complete for callees in lower components (computeSCC ensured them),
// the current iterate for members of the same component.
func (ix *Index) summarySoFar(fn FuncRef) *FuncSummary { return &ix.funcSums[fn.File][fn.Func] }

// KillsOn returns the paths fn may empty or rebind on its parameter i.
func (s *FuncSummary) KillsOn(i int) []string {
	if i < 0 || i >= len(s.ParamKills) {
		return nil
	}
	return s.ParamKills[i]
}

// WritesOn returns the paths fn writes on its parameter i.
func (s *FuncSummary) WritesOn(i int) []string {
	if i < 0 || i >= len(s.ParamWrites) {
		return nil
	}
	return s.ParamWrites[i]
}

func (ix *Index) summarizeFuncs() {
	base := ix.funcBase
	n := int(base[len(ix.Files)])
	ix.funcSums = make([][]FuncSummary, len(ix.Files))
	for fi := range ix.Files {
		ix.funcSums[fi] = make([]FuncSummary, len(ix.Files[fi].Summary.Functions))
	}
	refs := make([]FuncRef, 0, n)
	for fi := range ix.Files {
		for i := range ix.Files[fi].Summary.Functions {
			refs = append(refs, FuncRef{int32(fi), int32(i)})
		}
	}
	// The static call graph without virtual edges, as adjacency lists:
	// each file's in parallel, then joined in one allocation.
	fileAdj := make([][]int32, len(ix.Files))
	fileDeg := make([][]int32, len(ix.Files))
	parallelFiles(len(ix.Files), func(fi int) {
		deg := make([]int32, len(ix.Files[fi].Summary.Functions))
		var out []int32
		for fn := range deg {
			for _, ci := range ix.files[fi].funcCalls.of(int32(fn)) {
				for _, cal := range ix.Callees(CallSite{int32(fi), ci}) {
					if cal.Func.Valid() && !cal.Virtual {
						out = append(out, base[cal.Func.File]+cal.Func.Func)
						deg[fn]++
					}
				}
			}
		}
		fileAdj[fi], fileDeg[fi] = out, deg
	})
	adjStart := make([]int32, n+1)
	adj := make([]int32, 0, n)
	for fi := range ix.Files {
		for fn, d := range fileDeg[fi] {
			adjStart[int(base[fi])+fn+1] = adjStart[int(base[fi])+fn] + d
		}
		adj = append(adj, fileAdj[fi]...)
	}
	succ := func(v int) []int32 { return adj[adjStart[v]:adjStart[v+1]] }
	ref := func(v int) FuncRef { return refs[v] }
	sccs := tarjan(n, succ)
	ix.sccOf = make([][]int32, len(ix.Files))
	for fi := range ix.Files {
		ix.sccOf[fi] = make([]int32, len(ix.Files[fi].Summary.Functions))
	}
	ix.sccs = make([][]FuncRef, len(sccs))
	ix.sccCyclic = make([]bool, len(sccs))
	members := make([]FuncRef, 0, n) // one backing array for all components
	for si, scc := range sccs {
		start := len(members)
		for _, v := range scc {
			r := ref(v)
			ix.sccOf[r.File][r.Func] = int32(si)
			members = append(members, r)
		}
		ix.sccs[si] = members[start:len(members):len(members)]
		cyclic := len(scc) > 1
		if !cyclic {
			for _, w := range succ(scc[0]) {
				if int(w) == scc[0] {
					cyclic = true
				}
			}
		}
		ix.sccCyclic[si] = cyclic
	}
	ix.sumDone = make([]sync.Once, len(sccs))
}

// lowerCallees calls visit with each non-virtual project callee of the
// members of component si that is in another component: a lower one, whose
// results si's computation needs first.
func (ix *Index) lowerCallees(si int32, visit func(FuncRef)) {
	for _, m := range ix.sccs[si] {
		for _, ci := range ix.files[m.File].funcCalls.of(m.Func) {
			for _, cal := range ix.Callees(CallSite{m.File, ci}) {
				if cal.Func.Valid() && !cal.Virtual && ix.sccOf[cal.Func.File][cal.Func.Func] != si {
					visit(cal.Func)
				}
			}
		}
	}
}

// ensureSummary computes the summaries of fn's component, and first those
// of the components it calls. Summaries are computed on demand: rules ask
// about the functions on their paths, a small part of a project, and the
// eager computation of all was two thirds of the index's build.
// Components form a DAG, so a goroutine computing one waits only for
// strictly lower ones: no deadlock between concurrent callers.
func (ix *Index) ensureSummary(fn FuncRef) {
	si := ix.sccOf[fn.File][fn.Func]
	ix.sumDone[si].Do(func() { ix.computeSCC(si) })
}

func (ix *Index) computeSCC(si int32) {
	scc := ix.sccs[si]
	ix.lowerCallees(si, ix.ensureSummary)
	cyclic := ix.sccCyclic[si]
	for iter := 0; iter < 50; iter++ {
		changed := false
		for _, r := range scc {
			next := ix.computeSummary(r)
			next.Recursive = cyclic
			old := &ix.funcSums[r.File][r.Func]
			if !sameSummary(old, &next) {
				*old = next
				changed = true
			}
		}
		if !cyclic || !changed {
			break
		}
	}
}

// tarjan returns the strongly connected components of a graph of n nodes,
// callees before callers. Iterative, so deep call chains cannot overflow.
func tarjan(n int, succ func(int) []int32) [][]int {
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var out [][]int
	flat := make([]int, 0, n) // the components, back to back
	next := 0
	type frame struct {
		v    int
		succ []int32
		i    int
	}
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{v: root, succ: succ(root)}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(f.succ) {
				w := int(f.succ[f.i])
				f.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{v: w, succ: succ(w)})
				} else if onStack[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				start := len(flat)
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					flat = append(flat, w)
					if w == v {
						break
					}
				}
				out = append(out, flat[start:len(flat):len(flat)])
			}
		}
	}
	return out
}

func sameSummary(a, b *FuncSummary) bool {
	if a.MayReturnNone != b.MayReturnNone || !slices.Equal(a.SelfWrites, b.SelfWrites) ||
		len(a.Escapes) != len(b.Escapes) {
		return false
	}
	if !slices.Equal(a.SelfKills, b.SelfKills) {
		return false
	}
	for i := range max(len(a.ParamWrites), len(b.ParamWrites)) {
		if !slices.Equal(a.WritesOn(i), b.WritesOn(i)) || !slices.Equal(a.KillsOn(i), b.KillsOn(i)) {
			return false
		}
	}
	for i := range a.Escapes {
		if a.Escapes[i] != b.Escapes[i] {
			return false
		}
	}
	return true
}

// pathSet is a small sorted set of paths with a size cap.
type pathSet []string

func (p *pathSet) add(prefix, w string) {
	v := w
	switch {
	case prefix == "":
	case w == "":
		v = prefix
	default:
		v = prefix + "." + w
	}
	i, found := slices.BinarySearch(*p, v)
	if found || len(*p) >= maxPaths {
		return
	}
	*p = slices.Insert(*p, i, v)
}

// effectSets accumulates the writes and kills of one function.
type effectSets struct {
	selfW, selfK   pathSet
	paramW, paramK []pathSet
}

// isKill: a use that may leave its path empty or None.
func isKill(u *AttrUse) bool {
	switch u.Kind {
	case Assign, Delete:
		return true
	case Mutate:
		switch u.Op {
		case MutClear, MutPop, MutPopitem, MutRemove, MutDiscard, MutDelItem:
			return true
		}
	}
	return false
}

// addSelf / addParam merge a callee's writes and kills on one of its
// receivers, under prefix (the path the receiver has here).
func (e *effectSets) addSelf(prefix string, ws, ks []string) {
	for _, w := range ws {
		e.selfW.add(prefix, w)
	}
	for _, k := range ks {
		e.selfK.add(prefix, k)
	}
}

func (e *effectSets) addParam(p int, prefix string, ws, ks []string) {
	for _, w := range ws {
		e.paramW[p].add(prefix, w)
	}
	for _, k := range ks {
		e.paramK[p].add(prefix, k)
	}
}

// computeSummary composes fn's own effects with its callees' current
// summaries.
func (ix *Index) computeSummary(r FuncRef) FuncSummary {
	s := ix.Files[r.File].Summary
	d := &ix.files[r.File]
	f := &s.Functions[r.Func]
	var out FuncSummary
	self, _ := ix.selfOf(r.File, r.Func)
	hasSelf := self != ""
	var e effectSets
	var bufW, bufK [8]pathSet
	if len(f.Params) <= len(bufW) {
		e.paramW, e.paramK = bufW[:len(f.Params)], bufK[:len(f.Params)]
	} else {
		e.paramW, e.paramK = make([]pathSet, len(f.Params)), make([]pathSet, len(f.Params))
	}

	// Own writes.
	for _, ui := range ix.funcUses(r) {
		u := &s.Uses[ui]
		if u.Kind == Read {
			continue
		}
		switch {
		case u.Self:
			e.selfW.add("", u.Path)
			if isKill(u) {
				e.selfK.add("", u.Path)
			}
		case u.Param >= 0 && int(u.Param) < len(e.paramW):
			e.paramW[u.Param].add("", u.Path)
			if isKill(u) {
				e.paramK[u.Param].add("", u.Path)
			}
		}
	}

	// Effects of calls.
	var bind []int
	for _, ci := range d.funcCalls.of(r.Func) {
		site := CallSite{r.File, ci}
		call := &s.Calls[ci]
		for _, cal := range ix.Callees(site) {
			if !cal.Func.Valid() || cal.Virtual {
				continue
			}
			g := ix.summarySoFar(cal.Func)
			gf := ix.Func(cal.Func)
			// What the callee writes on its receiver.
			switch {
			case call.Kind == RefSuper && hasSelf:
				e.addSelf("", g.SelfWrites, g.SelfKills)
			case call.Kind == RefAttr && cal.bound(ix) && gf.Kind != ClassMethod:
				root, rest, _ := strings.Cut(call.Recv, ".")
				if hasSelf && root == self {
					e.addSelf(rest, g.SelfWrites, g.SelfKills)
				} else if p := paramIndex(f, root); p >= 0 {
					e.addParam(p, rest, g.SelfWrites, g.SelfKills)
				}
			case cal.Kind == CallFunction && hasSelf && gf.SelfClass == f.SelfClass && gf.Parent >= 0:
				e.addSelf("", g.SelfWrites, g.SelfKills) // a closure over self
			}
			// What it writes on the arguments.
			args := s.Args[call.Args[0]:call.Args[1]]
			if len(g.ParamWrites) > 0 && len(args) > 0 {
				bind = ix.bindArgs(site, cal, bind[:0])
				for ai, a := range args {
					if a.Path == "" || bind[ai] < 0 {
						continue
					}
					ws, ks := g.WritesOn(bind[ai]), g.KillsOn(bind[ai])
					if len(ws) == 0 {
						continue
					}
					root, rest, _ := strings.Cut(a.Path, ".")
					if hasSelf && root == self {
						e.addSelf(rest, ws, ks)
					} else if p := paramIndex(f, root); p >= 0 {
						e.addParam(p, rest, ws, ks)
					}
				}
			}
			for _, esc := range g.Escapes {
				if len(out.Escapes) >= maxEscapes {
					break
				}
				if !ix.caught(r, call.Try, esc.Type) && !hasEscape(out.Escapes, esc.Raise) {
					out.Escapes = append(out.Escapes, esc)
				}
			}
		}
	}

	// Own raises (after callee escapes: order only matters for the cap).
	for _, ri := range d.funcRaises.of(r.Func) {
		rs := &s.Raises[ri]
		if rs.Type == "" {
			continue // a bare re-raise: the handler's Reraises covers it
		}
		if rs.HandlerTry >= 0 && rs.Type == s.Tries[rs.HandlerTry].Handlers[rs.Handler].Name {
			continue // `raise e` of the caught exception, likewise
		}
		typ := ix.ExceptionName(r.File, r.Func, rs.Type)
		ref := RaiseRef{r.File, ri}
		if !ix.caught(r, rs.Try, typ) && !hasEscape(out.Escapes, ref) && len(out.Escapes) < maxEscapes {
			out.Escapes = append(out.Escapes, Escape{Type: typ, Raise: ref})
		}
	}

	// None returns.
	if !f.Stub && !f.Generator {
		out.MayReturnNone = f.FallsOff
		for _, ri := range d.funcRets.of(r.Func) {
			rt := &s.Returns[ri]
			if rt.Value == ValueNone || rt.Value == ValueMaybeNone {
				out.MayReturnNone = true
				break
			}
			if rt.Call >= 0 && int(rt.Call) < len(s.Calls) {
				for _, cal := range ix.Callees(CallSite{r.File, rt.Call}) {
					if cal.Func.Valid() && !cal.Virtual && cal.Kind != CallCtor && ix.summarySoFar(cal.Func).MayReturnNone {
						out.MayReturnNone = true
					}
				}
			}
		}
	}

	out.SelfWrites, out.SelfKills = e.selfW, e.selfK
	selfParam := hasSelf && f.Class >= 0 && len(f.Params) > 0 && f.Params[0].Name == self
	out.ParamWrites = perParam(e.paramW, selfParam, e.selfW)
	out.ParamKills = perParam(e.paramK, selfParam, e.selfK)
	return out
}

// perParam copies per-parameter sets out, nil when all are empty; a
// method's self parameter gets the self set.
func perParam(sets []pathSet, selfParam bool, self pathSet) [][]string {
	any := selfParam && len(self) > 0
	for i := range sets {
		any = any || len(sets[i]) > 0
	}
	if !any {
		return nil
	}
	out := make([][]string, len(sets))
	for i := range sets {
		out[i] = sets[i]
	}
	if selfParam {
		out[0] = self
	}
	return out
}

func paramIndex(f *Function, name string) int {
	for i := range f.Params {
		if f.Params[i].Name == name {
			return i
		}
	}
	return -1
}

func hasEscape(es []Escape, r RaiseRef) bool {
	for _, e := range es {
		if e.Raise == r {
			return true
		}
	}
	return false
}

// caught reports whether an exception of class typ raised in the body of
// try (an index in fn's file, -1 for none) is caught in fn: the first
// matching handler of an enclosing try catches it, unless that handler
// re-raises, in which case the search goes on outward.
func (ix *Index) caught(fn FuncRef, try int32, typ string) bool {
	s := ix.Files[fn.File].Summary
	for t := try; t >= 0 && int(t) < len(s.Tries); t = s.Tries[t].Outer {
		for hi := range s.Tries[t].Handlers {
			h := &s.Tries[t].Handlers[hi]
			match := h.Types == nil
			for _, ht := range h.Types {
				if ix.Catches(ix.exceptionNameCached(fn, ht), typ) {
					match = true
					break
				}
			}
			if match {
				if !h.Reraises {
					return true
				}
				break
			}
		}
	}
	return false
}

// CaughtAt reports whether an exception of class typ raised at a call site
// is caught by a handler of the calling function that does not re-raise.
func (ix *Index) CaughtAt(site CallSite, typ string) bool {
	c := ix.Call(site)
	if c.Func < 0 {
		return false
	}
	return ix.caught(FuncRef{site.File, c.Func}, c.Try, typ)
}

// funcUses returns the uses recorded in function r.
func (ix *Index) funcUses(r FuncRef) []int32 {
	return ix.files[r.File].funcUses.of(r.Func)
}

// excKey caches handler type resolution for function summaries.
type excKey struct {
	fn   FuncRef
	text string
}

func (ix *Index) exceptionNameCached(fn FuncRef, text string) string {
	k := excKey{fn, text}
	if n, ok := ix.excNames.Load(k); ok {
		return n.(string)
	}
	n := ix.ExceptionName(fn.File, fn.Func, text)
	ix.excNames.Store(k, n)
	return n
}
