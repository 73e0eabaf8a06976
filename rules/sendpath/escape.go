package sendpath

import (
	"slices"
	"sort"
	"strings"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
)

// RaiseSite is a raise (or a failing assert) in a function on a send path,
// with the condition under which it cannot happen. SGL001 part (b) builds
// them from emptiness checks on registration state; records (SGL010) from
// the raises their messages match.
type RaiseSite struct {
	Func pymodel.FuncRef
	Node syntax.NodeID // the raise or assert statement
	// Exc is the exception class as written ("RuntimeError"); handlers are
	// matched on its last name part, built-in bases known (cfg.Handlers).
	Exc     string
	Message string // the literal message, "" if none
	// Excluded are facts in Func's names any one of which, holding at the
	// raise once the checks on the way are carried down to it, rules the
	// raise out on that path (`self.descs` non-empty for `if not
	// self.descs: raise ...`). Facts that contradict those at the raise
	// rule it out too, without being listed: list here what the facts
	// engine cannot see (an assert's failing test, an equivalent condition).
	Excluded []facts.Fact
	// Raising are facts that hold when it raises beyond those before the
	// statement (an assert's failing test); a contradiction with what the
	// chain carries rules the raise out.
	Raising []facts.Fact
	// Direct: also report a raise made by an outermost entry itself (its
	// Escape has Call.File -1 and a one-step Chain).
	Direct bool
}

// Escape is a raise site reached from an outermost entry with nothing on
// the way that excludes it or catches it for just the current request.
type Escape struct {
	Entry Entry
	// Call is the entry's own call into the path: where to report (File -1
	// for a Direct raise in the entry).
	Call pymodel.CallSite
	// Chain runs from the entry (Site.File -1) through Call to the raising
	// function.
	Chain []pymodel.Step
	// CallerHandles: the entry's project callers (it is not a thread) all
	// make the call inside a handler that catches the exception; rules
	// that want the scheduler-crash case drop these.
	CallerHandles bool
}

// Bounds of the search from a raise up to the entries; past them paths are
// not explored (a missed finding, never a false one).
const (
	maxChainCalls = 12   // calls between an entry and the raise
	maxPartial    = 2000 // partial paths expanded per raise site
	maxChains     = 64   // complete chains evaluated per raise site
)

// Escapes returns the escapes of r, one per outermost entry call (in entry
// and call order) through which some call chain reaches r's function with:
//   - every call on it reachable and outside any handler of r.Exc that
//     does not always raise again (such a handler fails just the request);
//   - the facts at the raise consistent, once the facts holding at each
//     call on the chain (checks that dominate it, the entry's first) are
//     carried into the callee as its entry facts, through the call's
//     bindings: a check excludes the raise when it contradicts the facts
//     of the raise's own branch (`if not self.descs: raise` under an entry
//     that returned when `self.descs` was empty) or makes one of
//     r.Excluded hold there. Rebinding or emptying a path on the way
//     (callee kills included) drops its facts, so a check followed by a
//     reset excludes nothing.
//
// Chains are enumerated breadth first up the send-path callers of r's
// function, so every path from an entry call is examined (within the
// bounds above), not only the shortest.
func (p *Paths) Escapes(r RaiseSite) []Escape {
	if !p.OnKVPath(r.Func) {
		return nil
	}
	if p.File(r.Func.File) == nil || p.Handled(r.Func, r.Node, r.Exc) {
		return nil
	}
	type found struct {
		e    Escape
		rank [2]int
	}
	var out []found
	seen := map[pymodel.CallSite]bool{}
	chains := 0
	p.walkUp(r.Func, func(chain []pymodel.CallSite, e Entry) bool {
		chains++
		call := pymodel.CallSite{File: -1, Call: -1}
		if len(chain) > 0 {
			call = chain[0]
		} else if !r.Direct {
			return chains < maxChains
		}
		if !seen[call] && p.chainEscapes(r, chain) {
			seen[call] = true
			esc := Escape{Entry: e, Call: call, Chain: p.steps(e, chain, r.Func),
				CallerHandles: e.Kind != Thread && e.Kind != Executor && p.CallersHandle(e.Func, r.Exc)}
			out = append(out, found{esc, [2]int{p.entryOf[e.Func], int(call.Call)}})
		}
		return chains < maxChains
	})
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].rank, out[j].rank
		return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
	})
	res := make([]Escape, len(out))
	for i := range out {
		res[i] = out[i].e
	}
	return res
}

// walkUp enumerates, breadth first, the call paths from outermost entries
// down to fn (entry's call first), calling yield with each until it
// returns false; a path visits each function once. fn itself, if it is an
// outermost entry, comes first with an empty path.
func (p *Paths) walkUp(fn pymodel.FuncRef, yield func([]pymodel.CallSite, Entry) bool) {
	if e, ok := p.Terminal(fn); ok {
		if !yield(nil, e) {
			return
		}
	}
	type partial struct {
		top   pymodel.FuncRef
		funcs []pymodel.FuncRef // on the path, to refuse cycles
		chain []pymodel.CallSite
	}
	queue := []partial{{top: fn, funcs: []pymodel.FuncRef{fn}}}
	for expanded := 0; len(queue) > 0 && expanded < maxPartial; expanded++ {
		q := queue[0]
		queue = queue[1:]
		if len(q.chain) >= maxChainCalls {
			continue
		}
		for _, site := range p.upSites(q.top) {
			caller := pymodel.FuncRef{File: site.File, Func: p.ix.Call(site).Func}
			if slices.Contains(q.funcs, caller) {
				continue
			}
			chain := append([]pymodel.CallSite{site}, q.chain...)
			if e, ok := p.Terminal(caller); ok {
				if !yield(chain, e) {
					return
				}
				continue
			}
			funcs := append(slices.Clip(q.funcs), caller)
			queue = append(queue, partial{top: caller, funcs: funcs, chain: chain})
		}
	}
}

// Terminal reports an outermost entry where an exception leaves the send
// paths: not an executor task whose Future a send path reads (its
// exceptions go on from the joins).
func (p *Paths) Terminal(fn pymodel.FuncRef) (Entry, bool) {
	e, ok := p.EntryOf(fn)
	return e, ok && e.Outermost && len(p.joins[fn]) == 0
}

// upSites are the calls an exception raised in fn goes on to: its
// send-path callers, or for a joined executor task its joins.
func (p *Paths) upSites(fn pymodel.FuncRef) []pymodel.CallSite {
	if j := p.joins[fn]; len(j) > 0 {
		return j
	}
	return p.SendCallers(fn)
}

// chainEscapes carries the facts down chain (entry's call first) to r.
func (p *Paths) chainEscapes(r RaiseSite, chain []pymodel.CallSite) bool {
	var known []facts.Fact
	for i, site := range chain {
		caller := pymodel.FuncRef{File: site.File, Func: p.ix.Call(site).Func}
		f := p.File(site.File)
		res := p.analyzeWith(caller, known)
		if f == nil || res == nil {
			return false
		}
		node := p.ix.Call(site).At.Node
		if !res.Reachable(node) {
			return false
		}
		at := res.At(node)
		if Contradictory(at) || p.Handled(caller, node, r.Exc) {
			return false
		}
		next := r.Func
		if i+1 < len(chain) {
			next = pymodel.FuncRef{File: chain[i+1].File, Func: p.ix.Call(chain[i+1]).Func}
		}
		known = nil
		for _, cal := range p.ix.Callees(site) {
			if cal.Func == next {
				known = p.flow.ToCallee(site, cal, at)
				break
			}
		}
	}
	res := p.analyzeWith(r.Func, known)
	if res == nil || !res.Reachable(r.Node) {
		return false
	}
	at := res.At(r.Node)
	if Contradictory(append(slices.Clip(at), r.Raising...)) {
		return false
	}
	for _, x := range r.Excluded {
		if slices.Contains(at, x) {
			return false
		}
	}
	return true
}

// steps turns a chain of call sites into Steps from the entry.
func (p *Paths) steps(e Entry, chain []pymodel.CallSite, fn pymodel.FuncRef) []pymodel.Step {
	out := []pymodel.Step{{Site: pymodel.CallSite{File: -1, Call: -1}, Func: e.Func}}
	for i, site := range chain {
		next := fn
		if i+1 < len(chain) {
			next = pymodel.FuncRef{File: chain[i+1].File, Func: p.ix.Call(chain[i+1]).Func}
		}
		out = append(out, pymodel.Step{Site: site, Func: next})
	}
	return out
}

// analyzeWith is the flow's analysis of fn under entry facts, memoised
// per set of entry facts (chains share their upper parts). Safe for
// concurrent use.
func (p *Paths) analyzeWith(fn pymodel.FuncRef, entry []facts.Fact) *facts.Result {
	// What the constructors established, and property aliases, hold on
	// every chain.
	if inv := p.flow.ClassFacts(fn); len(inv) > 0 {
		entry = append(slices.Clip(inv), entry...)
	}
	if len(entry) == 0 {
		return p.flow.Analyze(fn, nil)
	}
	k := pushKey{fn, factsKey(entry)}
	p.pushMu.Lock()
	r, ok := p.pushed[k]
	p.pushMu.Unlock()
	if ok {
		return r
	}
	r = p.flow.Analyze(fn, entry)
	p.pushMu.Lock()
	if p.pushed == nil {
		p.pushed = map[pushKey]*facts.Result{}
	}
	p.pushed[k] = r
	p.pushMu.Unlock()
	return r
}

type pushKey struct {
	fn    pymodel.FuncRef
	entry string
}

func factsKey(fs []facts.Fact) string {
	keys := make([]string, len(fs))
	for i, f := range fs {
		keys[i] = f.String()
	}
	sort.Strings(keys)
	return strings.Join(keys, "\x00")
}

// Contradictory reports two facts that cannot hold together (x is None and
// x non-empty, k in t and k not in t, ...): the path that led to them is
// infeasible. A must-analysis keeps both when a branch tests the opposite
// of what is known.
func Contradictory(fs []facts.Fact) bool {
	byPath := map[facts.Path][]facts.Fact{}
	for _, f := range fs {
		byPath[f.Path] = append(byPath[f.Path], f)
	}
	for _, group := range byPath {
		for i, a := range group {
			for _, b := range group[i+1:] {
				if opposite(a, b) || opposite(b, a) {
					return true
				}
			}
		}
	}
	return false
}

// opposite reports whether a and b (on the same path) exclude each other.
func opposite(a, b facts.Fact) bool {
	switch a.Kind {
	case facts.IsNone:
		return b.Kind == facts.NotNone || b.Kind == facts.Truthy || b.Kind == facts.In
	case facts.Truthy:
		return b.Kind == facts.Falsy
	case facts.In:
		return b.Kind == facts.NotIn && b.Key == a.Key || b.Kind == facts.Falsy
	case facts.IsInstance:
		return b.Kind == facts.NotInstance && b.Other == a.Other
	case facts.SameLen:
		return b.Kind == facts.DiffLen && b.Other == a.Other
	}
	return false
}

// CallersHandle reports whether fn has project callers and each makes the
// call where it handles exc (see Handled): code outside the send paths,
// such as a scheduler, that deals with the failure of one call.
func (p *Paths) CallersHandle(fn pymodel.FuncRef, exc string) bool {
	sites := p.ix.Callers(fn)
	if len(sites) == 0 {
		return false
	}
	for _, s := range sites {
		call := p.ix.Call(s)
		if !p.Handled(pymodel.FuncRef{File: s.File, Func: call.Func}, call.At.Node, exc) {
			return false
		}
	}
	return true
}

// Handled reports whether a failure of class exc raised while node n of
// function fn is evaluated is handled there: n lies in a try body whose
// first clause catching exc ends, on some path, without raising (a clause
// that always raises passes the failure on to the next enclosing one).
// In a thread target the clause must also let the thread's loop go on: a
// handler around the whole request loop runs only once the loop is left,
// and one that returns, or breaks out of the thread's only loop, leaves
// it too; the thread then ends for every request.
func (p *Paths) Handled(fn pymodel.FuncRef, n syntax.NodeID, exc string) bool {
	f := p.File(fn.File)
	if f == nil {
		return false
	}
	e, isEntry := p.EntryOf(fn)
	thread := isEntry && e.Kind == Thread && fn.Func >= 0
	for _, c := range cfg.Handlers(f.Tree(), n, exc) {
		if c.RaisesAlways {
			continue
		}
		return !thread || KeepsLoop(f.Tree(), c, p.ix.Func(fn).Def)
	}
	return false
}

// KeepsLoop reports whether a thread target defined at def goes on with
// its loop after handler c ran: the try lies in a loop of the target, and
// some path through the clause neither leaves the function nor breaks
// out of the target's outermost loop.
func KeepsLoop(t *syntax.Tree, c cfg.Catch, def syntax.NodeID) bool {
	loops := loopsAround(t, c.Try, def)
	switch {
	case loops == 0, c.LeavesAlways:
		return false
	case c.BreaksAlways:
		return loops > 1 // an outer loop goes on after the inner one is left
	}
	return true
}

// InsideLoop reports whether node n lies in the body of a loop of the
// function defined at def.
func (p *Paths) InsideLoop(t *syntax.Tree, n, def syntax.NodeID) bool {
	return loopsAround(t, n, def) > 0
}

// loopsAround counts the while and for loops of the function def whose
// body holds node n (loops of nested scopes apart).
func loopsAround(t *syntax.Tree, n, def syntax.NodeID) int {
	count := 0
	for m := n; m != def && m != syntax.NoNode; m = t.Parent(m) {
		p := t.Parent(m)
		if p == syntax.NoNode {
			return count
		}
		switch t.Kind(p) {
		case syntax.WhileStatement, syntax.ForStatement:
			if t.FieldOf(m) == syntax.FBody {
				count++
			}
		case syntax.FunctionDefinition, syntax.Lambda, syntax.ClassDefinition:
			return count
		}
	}
	return count
}

// TranslateUp rewrites facts of callee (in its names) into the names of
// the caller at site: the receiver for self, arguments for parameters. A
// fact with a path no binding covers is dropped. For messages: what a
// callee's condition means where the call is made.
func (p *Paths) TranslateUp(fs []facts.Fact, site pymodel.CallSite, callee pymodel.FuncRef) []facts.Fact {
	for _, cal := range p.ix.Callees(site) {
		if cal.Func == callee {
			return p.flow.ToCaller(site, cal, fs)
		}
	}
	return nil
}
