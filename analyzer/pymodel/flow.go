package pymodel

import (
	"slices"
	"strings"
	"sync"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/internal/oncemap"
)

// Flow adds guard facts (package facts) to the index, interprocedurally:
//   - a function's facts are computed with what its callees guarantee: the
//     facts that hold whenever a callee returns normally (its post-facts,
//     e.g. `self.descs` non-empty after a helper that raises when it is
//     empty) enter as facts.Options.CallEffects, translated to the caller's
//     names; the paths a callee may empty or rebind (FuncSummary kills)
//     enter as CallKills;
//   - for a set of reachable functions (Guards), the facts that hold on
//     entry to each function because every call to it in the set was made
//     under them (checks in callers that dominate the call).
//
// Everything is computed on demand, once per function (a function with
// neither parameters nor self exports no facts, so its callers never need
// its analysis: it waits until a rule asks), and Flow is safe for
// concurrent use: post-facts are computed per strongly connected
// component of the static call graph (callees first), so concurrent
// requests never wait on each other in a cycle. Within a component the
// post-facts are iterated from none to a fixed point (sound: a must
// analysis may only learn less).
//
// Limits: post-facts follow non-virtual callees only; a callee's
// post-facts about a parameter assume the parameter is not rebound in the
// callee; translation needs the argument to be an access path (`x`,
// `self.a`, `t[k]`), facts on other arguments are dropped.
type Flow struct {
	ix    *Index
	tree  func(file int32) *syntax.Tree
	waits []string

	sccDone []sync.Once
	funcs   [][]funcFlow

	coverMemos oncemap.Map[ClassRef, map[string][]string] // see covers.go
	invMemos   oncemap.Map[ClassRef, *classInvariants]    // see invariants.go
	getters    oncemap.Map[FuncRef, string]               // self path a getter returns (see properties.go)
}

// funcFlow is the flow state of one function; written only by the
// goroutine that computes its component, read after that completes.
type funcFlow struct {
	graph  *cfg.Graph
	result *facts.Result // without entry facts
	post   []facts.Fact
	// opaque: the function has neither parameters nor a self (exportsNone),
	// so its component left graph and result unbuilt; built is their one
	// build, on request (Graph, Facts, Analyze).
	opaque bool
	built  sync.Once
}

// NewFlow prepares the facts layer of ix. tree returns the syntax tree a
// file's summary was made from (nil if it is not available: its functions
// then have no facts). waitCalls is passed to facts.Options.WaitCalls
// (nil: the facts defaults).
func NewFlow(ix *Index, tree func(file int32) *syntax.Tree, waitCalls []string) *Flow {
	fl := &Flow{ix: ix, tree: tree, waits: waitCalls, sccDone: make([]sync.Once, len(ix.sccs))}
	fl.funcs = make([][]funcFlow, len(ix.Files))
	for fi := range ix.Files {
		fl.funcs[fi] = make([]funcFlow, len(ix.Files[fi].Summary.Functions))
	}
	return fl
}

// Index is the index the flow works on.
func (fl *Flow) Index() *Index { return fl.ix }

// ensure computes fn's component (and, first, the components it calls).
func (fl *Flow) ensure(fn FuncRef) {
	if !fl.ix.validFunc(fn) {
		return
	}
	si := fl.ix.sccOf[fn.File][fn.Func]
	fl.sccDone[si].Do(func() { fl.computeSCC(si) })
}

func (fl *Flow) computeSCC(si int32) {
	ix := fl.ix
	members := ix.sccs[si]
	if len(members) == 1 && fl.exportsNone(members[0]) {
		// Nothing to give callers: no analysis until a rule asks for its
		// facts. Such getters (`get_attn_tp_group()`) sit in constructor
		// chains, and analysing one read its whole file's tree first
		// (parallel_state.py: 3 ms of an edit run on lucifer1004).
		fl.funcs[members[0].File][members[0].Func].opaque = true
		return
	}
	// Callee components first (strictly lower: no waiting in a cycle).
	ix.lowerCallees(si, fl.ensure)
	for _, m := range members {
		fl.funcs[m.File][m.Func].graph = fl.graphOf(m)
	}
	for round := 0; round < 8; round++ {
		changed := false
		for _, m := range members {
			ff := &fl.funcs[m.File][m.Func]
			if ff.graph == nil {
				continue
			}
			ff.result = fl.analyze(m, ff.graph, nil)
			post := fl.exportPost(m, ff.result.AtExit())
			if !sameFacts(post, ff.post) {
				ff.post = post
				changed = true
			}
		}
		if !changed || len(members) == 1 && !fl.selfRecursive(members[0]) {
			break
		}
	}
}

// exportsNone reports whether fn exports no facts: it has no parameters
// and uses no self (its own or an enclosing method's), so its post-facts
// and return facts, which callers see only about its self and parameters
// (exportPost), are empty.
func (fl *Flow) exportsNone(fn FuncRef) bool {
	return len(fl.ix.Func(fn).Params) == 0 && len(fl.ix.funcUses(fn)) == 0
}

// analysed returns fn's flow state, building an opaque function's graph
// and facts first (its component is computed).
func (fl *Flow) analysed(fn FuncRef) *funcFlow {
	ff := &fl.funcs[fn.File][fn.Func]
	if ff.opaque {
		ff.built.Do(func() {
			fl.ix.lowerCallees(fl.ix.sccOf[fn.File][fn.Func], fl.ensure)
			if ff.graph = fl.graphOf(fn); ff.graph != nil {
				ff.result = fl.analyze(fn, ff.graph, nil)
			}
		})
	}
	return ff
}

// graphOf builds fn's control flow graph; nil when its file's tree is not
// available (the function then has no facts).
func (fl *Flow) graphOf(fn FuncRef) *cfg.Graph {
	t := fl.tree(fn.File)
	if t == nil {
		return nil
	}
	return cfg.New(t, fl.ix.Func(fn).Def)
}

func (fl *Flow) selfRecursive(fn FuncRef) bool {
	for _, ci := range fl.ix.files[fn.File].funcCalls.of(fn.Func) {
		for _, cal := range fl.ix.Callees(CallSite{fn.File, ci}) {
			if cal.Func == fn && !cal.Virtual {
				return true
			}
		}
	}
	return false
}

// analyze runs the facts analysis of fn on graph g with entry facts.
func (fl *Flow) analyze(fn FuncRef, g *cfg.Graph, entry []facts.Fact) *facts.Result {
	t := fl.tree(fn.File)
	return facts.Analyze(t, g, facts.Options{
		EntryFacts:  entry,
		CallEffects: func(call syntax.NodeID) []facts.Fact { return fl.callEffects(fn, t, call) },
		CallKills:   func(call syntax.NodeID) []facts.Path { return fl.callKills(fn, t, call) },
		CallTests:   func(call syntax.NodeID, truthy bool) []facts.Fact { return fl.callTests(fn, t, call, truthy) },
		KeyCovers:   fl.keyCovers(fn),
		WaitCalls:   fl.waits,
	})
}

// callTests: when call, tested as a condition, is truthy (falsy), the
// facts its callee's return expression gives, for a predicate method
// (`if not self.has_peer(k): return`), in the caller's names. Only a call
// with one project callee, in another component (its facts are final),
// counts.
func (fl *Flow) callTests(caller FuncRef, t *syntax.Tree, n syntax.NodeID, truthy bool) []facts.Fact {
	ci, ok := fl.callAt(caller.File, n)
	if !ok {
		return nil
	}
	site := CallSite{caller.File, ci}
	cals := fl.ix.Callees(site)
	if len(cals) != 1 || !cals[0].Func.Valid() || cals[0].Virtual || cals[0].Kind == CallCtor {
		return nil
	}
	cal := cals[0]
	if fl.ix.sccOf[cal.Func.File][cal.Func.Func] == fl.ix.sccOf[caller.File][caller.Func] {
		return nil
	}
	fl.ensure(cal.Func)
	res := fl.funcs[cal.Func.File][cal.Func.Func].result // nil if opaque: it exports none
	if res == nil {
		return nil
	}
	ret, ok := res.ReturnFacts(truthy)
	if !ok || len(ret) == 0 {
		return nil
	}
	var out []facts.Fact
	bs := fl.bindings(t, site, cal)
	for _, f := range fl.exportPost(cal.Func, ret) {
		out = translateFacts(out, f, bs, true)
	}
	return out
}

// Facts returns fn's facts without entry facts (nil if fn has no tree).
func (fl *Flow) Facts(fn FuncRef) *facts.Result {
	fl.ensure(fn)
	if !fl.ix.validFunc(fn) {
		return nil
	}
	return fl.analysed(fn).result
}

// Graph returns fn's control-flow graph (nil if fn has no tree).
func (fl *Flow) Graph(fn FuncRef) *cfg.Graph {
	fl.ensure(fn)
	if !fl.ix.validFunc(fn) {
		return nil
	}
	return fl.analysed(fn).graph
}

// Post returns the facts about fn's self and parameters that hold whenever
// it returns normally, in fn's own names (nil if none, or if it never
// returns normally).
func (fl *Flow) Post(fn FuncRef) []facts.Fact {
	fl.ensure(fn)
	if !fl.ix.validFunc(fn) {
		return nil
	}
	return fl.funcs[fn.File][fn.Func].post
}

// Analyze runs the facts analysis of fn with the given entry facts and the
// interprocedural hooks (callee post-facts and kills). Rules that need
// other options build them with CallEffects and CallKills.
func (fl *Flow) Analyze(fn FuncRef, entry []facts.Fact) *facts.Result {
	g := fl.Graph(fn)
	if g == nil {
		return nil
	}
	if len(entry) == 0 {
		return fl.analysed(fn).result
	}
	return fl.analyze(fn, g, entry)
}

// CallEffects returns the hook that feeds callee post-facts into an
// analysis of fn (for facts.Options).
func (fl *Flow) CallEffects(fn FuncRef) func(call syntax.NodeID) []facts.Fact {
	t := fl.tree(fn.File)
	return func(call syntax.NodeID) []facts.Fact { return fl.callEffects(fn, t, call) }
}

// CallKills returns the hook that feeds callee kills into an analysis of
// fn (for facts.Options).
func (fl *Flow) CallKills(fn FuncRef) func(call syntax.NodeID) []facts.Path {
	t := fl.tree(fn.File)
	return func(call syntax.NodeID) []facts.Path { return fl.callKills(fn, t, call) }
}

// exportPost keeps the exit facts a caller can use: those whose paths (and
// keys) start at fn's self or parameters. Alias, .get, length and key-list facts are local.
func (fl *Flow) exportPost(fn FuncRef, exit []facts.Fact) []facts.Fact {
	f := fl.ix.Func(fn)
	self, _ := fl.ix.selfOf(fn.File, fn.Func)
	visible := func(p facts.Path) bool {
		if p == "" || p.IsLiteral() {
			return true
		}
		root := p.Root()
		if root == self {
			return true
		}
		for i := range f.Params {
			if f.Params[i].Name == root {
				return true
			}
		}
		return false
	}
	var out []facts.Fact
	for _, x := range exit {
		if x.Kind.Local() {
			continue
		}
		if visible(x.Path) && visible(x.Key) {
			out = append(out, x)
		}
	}
	sortFacts(out)
	return out
}

// binding maps a root name in the callee to a path in the caller.
type binding struct {
	callee facts.Path // `self` or a parameter name
	caller facts.Path // the receiver or argument path at the call
}

// bindings are the callee/caller correspondences of one call edge: the
// receiver of a bound method (or a closure's shared self) and every
// argument that is an access path bound to a named parameter.
func (fl *Flow) bindings(t *syntax.Tree, site CallSite, cal Callee) []binding {
	ix := fl.ix
	call := ix.Call(site)
	g := ix.Func(cal.Func)
	var out []binding
	callerSelf, _ := ix.selfOf(site.File, call.Func)
	switch {
	case cal.bound(ix) && cal.Kind != CallCtor && len(g.Params) > 0:
		recv := facts.Path("")
		switch call.Kind {
		case RefSuper:
			recv = facts.Path(callerSelf)
		case RefAttr:
			recv = facts.Path(call.Recv)
		}
		if recv != "" {
			out = append(out, binding{callee: facts.Path(g.Params[0].Name), caller: recv})
		}
	case cal.Kind == CallFunction && g.SelfClass >= 0 && g.Parent >= 0 && callerSelf != "":
		if calleeSelf, _ := ix.selfOf(cal.Func.File, cal.Func.Func); calleeSelf != "" {
			out = append(out, binding{callee: facts.Path(calleeSelf), caller: facts.Path(callerSelf)})
		}
	}
	args := ix.Args(site)
	bind := ix.BindArgs(site, cal)
	for i, a := range args {
		pi := bind[i]
		if pi < 0 || a.Star != 0 {
			continue
		}
		if k := g.Params[pi].Kind; k == VarArgs || k == VarKw {
			continue
		}
		if p, ok := facts.PathOf(t, a.At.Node); ok {
			out = append(out, binding{callee: facts.Path(g.Params[pi].Name), caller: p})
		}
	}
	return out
}

// translatePath rewrites p through the bindings, from one side to the
// other (toCaller: callee names to caller paths). Literals pass unchanged.
func translatePath(p facts.Path, bs []binding, toCaller bool) (facts.Path, bool) {
	if p == "" || p.IsLiteral() {
		return p, true
	}
	best, bestLen := facts.Path(""), -1
	for _, b := range bs {
		from, to := b.caller, b.callee
		if toCaller {
			from, to = b.callee, b.caller
		}
		if len(from) > bestLen && p.HasPrefix(from) {
			if q, ok := p.Rebase(from, to); ok {
				best, bestLen = q, len(from)
			}
		}
	}
	return best, bestLen >= 0
}

// sameFieldKey gives a callee a membership key that no binding reaches,
// through the one argument that is a field of the same name on another
// object: a caller that added `chunk.room` to a table and passes
// `info.room` on has, in sglang's transfer code, carried one request's id
// from record to record (`info = self.infos[chunk.room]`), which the facts
// do not follow. Counting the check may miss a KeyError between two
// requests; not counting it reports one that cannot happen. Only
// membership passed to callees: nothing learns a key is absent this way.
// Every use of caller facts in a callee sees it: SGL004's checks, and a
// callee's `if k not in t: raise` that a caller's membership rules out
// (SGL010).
func sameFieldKey(key facts.Path, bs []binding) (facts.Path, bool) {
	name, ok := fieldOf(key)
	if !ok {
		return "", false
	}
	found := facts.Path("")
	for _, b := range bs {
		if n, ok := fieldOf(b.caller); ok && n == name {
			if found != "" && found != b.callee {
				return "", false // two candidates: neither
			}
			found = b.callee
		}
	}
	return found, found != ""
}

// fieldOf is the attribute a path of attributes ends with (`room` for
// `req.room`); false for a bare name or a path through a subscript
// (`reqs[i].room`).
func fieldOf(p facts.Path) (string, bool) {
	if strings.ContainsRune(string(p), '[') {
		return "", false
	}
	return pyname.Last(string(p)), pyname.Parent(string(p)) != ""
}

// translateFacts appends to dst the translations of f through the
// bindings. A path may be reachable through several bindings (`self.descs`
// through the receiver self and through the argument `self.descs` bound to
// `local`): each gives a fact, so that neither name loses it. Keys take
// the longest binding; a membership key no binding reaches goes through
// the argument that is a field of the same name (sameFieldKey).
func translateFacts(dst []facts.Fact, f facts.Fact, bs []binding, toCaller bool) []facts.Fact {
	if f.Kind.Local() {
		return dst
	}
	if f.Kind == facts.SameLen || f.Kind == facts.DiffLen {
		// Two containers, each through its own binding.
		p, ok1 := translatePath(f.Path, bs, toCaller)
		o, ok2 := translatePath(f.Other, bs, toCaller)
		if !ok1 || !ok2 || p == o {
			return dst
		}
		if o < p {
			p, o = o, p
		}
		g := facts.Fact{Kind: f.Kind, Path: p, Other: o}
		if !slices.Contains(dst, g) {
			dst = append(dst, g)
		}
		return dst
	}
	k, ok := translatePath(f.Key, bs, toCaller)
	if !ok && f.Kind == facts.In && !toCaller {
		k, ok = sameFieldKey(f.Key, bs)
	}
	if !ok {
		return dst
	}
	for _, b := range bs {
		from, to := b.caller, b.callee
		if toCaller {
			from, to = b.callee, b.caller
		}
		p, ok := f.Path.Rebase(from, to)
		if !ok {
			continue
		}
		g := f
		g.Path, g.Key = p, k
		if !slices.Contains(dst, g) {
			dst = append(dst, g)
		}
	}
	return dst
}

// ToCallee rewrites facts that hold in the caller at site into the names
// of callee cal (receiver to self, path arguments to parameters): what the
// call passes on. Facts about anything else (locals, other attributes of
// the caller) are dropped, as are alias, .get, length and key-list facts.
func (fl *Flow) ToCallee(site CallSite, cal Callee, fs []facts.Fact) []facts.Fact {
	return fl.translateAll(site, cal, fs, false)
}

// ToCaller rewrites facts in callee cal's names into the caller's names at
// site: what a fact the callee needs (or guarantees) says at the call.
func (fl *Flow) ToCaller(site CallSite, cal Callee, fs []facts.Fact) []facts.Fact {
	return fl.translateAll(site, cal, fs, true)
}

func (fl *Flow) translateAll(site CallSite, cal Callee, fs []facts.Fact, toCaller bool) []facts.Fact {
	if !cal.Func.Valid() || !fl.ix.validFunc(FuncRef{site.File, fl.ix.Call(site).Func}) {
		return nil
	}
	t := fl.tree(site.File)
	if t == nil {
		return nil
	}
	bs := fl.bindings(t, site, cal)
	var out []facts.Fact
	for _, f := range fs {
		out = translateFacts(out, f, bs, toCaller)
	}
	sortFacts(out)
	return out
}

// callAt is Index.CallAt as the call's index in file fi's summary.
func (fl *Flow) callAt(fi int32, n syntax.NodeID) (int32, bool) {
	if site, ok := fl.ix.CallAt(fi, n); ok {
		return site.Call, true
	}
	return -1, false
}

// callEffects: the post-facts of the call's callee, in the caller's names.
func (fl *Flow) callEffects(caller FuncRef, t *syntax.Tree, n syntax.NodeID) []facts.Fact {
	ci, ok := fl.callAt(caller.File, n)
	if !ok {
		return nil
	}
	site := CallSite{caller.File, ci}
	var out []facts.Fact
	for _, cal := range fl.ix.Callees(site) {
		if !cal.Func.Valid() || cal.Virtual {
			continue
		}
		// Same component: the current round's value (this goroutine owns
		// it); other components are complete.
		if fl.ix.sccOf[cal.Func.File][cal.Func.Func] != fl.ix.sccOf[caller.File][caller.Func] {
			fl.ensure(cal.Func)
		}
		post := fl.funcs[cal.Func.File][cal.Func.Func].post
		if len(post) == 0 {
			continue
		}
		bs := fl.bindings(t, site, cal)
		for _, f := range post {
			out = translateFacts(out, f, bs, true)
		}
	}
	return out
}

// callKills: the paths the call's callee may empty or rebind, in the
// caller's names.
func (fl *Flow) callKills(caller FuncRef, t *syntax.Tree, n syntax.NodeID) []facts.Path {
	ix := fl.ix
	ci, ok := fl.callAt(caller.File, n)
	if !ok {
		return nil
	}
	site := CallSite{caller.File, ci}
	var out []facts.Path
	for _, cal := range ix.Callees(site) {
		if !cal.Func.Valid() || cal.Virtual {
			continue
		}
		sum := ix.FuncSummary(cal.Func)
		if len(sum.SelfKills) == 0 && len(sum.ParamKills) == 0 {
			continue
		}
		g := ix.Func(cal.Func)
		calleeSelf, _ := ix.selfOf(cal.Func.File, cal.Func.Func)
		for _, b := range fl.bindings(t, site, cal) {
			var kills []string
			if string(b.callee) == calleeSelf {
				kills = sum.SelfKills
			} else {
				kills = sum.KillsOn(paramIndex(g, string(b.callee)))
			}
			for _, k := range kills {
				p := b.caller
				if k != "" {
					p += facts.Path("." + k)
				}
				out = append(out, p)
			}
		}
	}
	return out
}

func sortFacts(fs []facts.Fact) {
	slices.SortFunc(fs, func(a, b facts.Fact) int {
		switch {
		case a.Kind != b.Kind:
			return int(a.Kind) - int(b.Kind)
		case a.Path != b.Path:
			return cmpStr(string(a.Path), string(b.Path))
		case a.Key != b.Key:
			return cmpStr(string(a.Key), string(b.Key))
		}
		return cmpStr(string(a.Other), string(b.Other))
	})
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func sameFacts(a, b []facts.Fact) bool { return slices.Equal(a, b) }
