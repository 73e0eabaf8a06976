package sendpath

import (
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
	// Excluded are facts in Func's names any one of which, holding at a
	// call on the way, rules the raise out on that path (`self.descs`
	// non-empty for `if not self.descs: raise ...`).
	Excluded []facts.Fact
}

// Escape is a raise site reached from an outermost entry with nothing on
// the way that excludes it or catches it for just the current request.
type Escape struct {
	Entry Entry
	// Call is the entry's own call into the path: where to report.
	Call pymodel.CallSite
	// Chain runs from the entry (Site.File -1) through Call to the raising
	// function.
	Chain []pymodel.Step
	// CallerHandles: the entry's project callers (it is not a thread) all
	// make the call inside a handler that catches the exception; rules
	// that want the scheduler-crash case drop these.
	CallerHandles bool
}

// Escapes returns, for each outermost entry and each of its calls from
// which r's function is reached, the escape of r, in entry and call order.
// A call is skipped when, along the shortest chain from it to the raise:
//   - one of r.Excluded, translated into the caller's names, holds at a
//     call on the chain (a check in the entry or in a function on the way,
//     entry facts included); or
//   - the call, or the raise itself, sits in a try whose first clause
//     catching r.Exc does not always raise again (it handles the failure
//     where it happens, usually by failing the one request); in a thread
//     target, inside its request loop (see Handled).
//
// Only the shortest chain from each call is examined: a longer path that
// avoids a check is not reported (a missed finding, never a false one).
func (p *Paths) Escapes(r RaiseSite) []Escape {
	if !p.OnPath(r.Func) {
		return nil
	}
	if p.File(r.Func.File) == nil || p.Handled(r.Func, r.Node, r.Exc) {
		return nil
	}
	var out []Escape
	reach := map[pymodel.FuncRef]*pymodel.Reach{}
	for _, e := range p.entries {
		if !e.Outermost {
			continue
		}
		ef := p.File(e.Func.File)
		if ef == nil {
			continue
		}
		for _, site := range p.ix.CallsIn(e.Func) {
			chain := p.chainVia(site, r.Func, reach)
			if chain == nil {
				continue
			}
			if p.excludedOnChain(chain, r.Excluded) || p.caughtOnChain(chain, r.Exc) {
				continue
			}
			full := append([]pymodel.Step{{Site: pymodel.CallSite{File: -1, Call: -1}, Func: e.Func}}, chain...)
			out = append(out, Escape{Entry: e, Call: site, Chain: full,
				CallerHandles: e.Kind != Thread && e.Kind != Executor && p.CallersHandle(e.Func, r.Exc)})
		}
	}
	return out
}

// chainVia returns the shortest chain from call site into target: the
// call and the function it reaches first, then the rest. nil when the
// site's callees do not reach target.
func (p *Paths) chainVia(site pymodel.CallSite, target pymodel.FuncRef, memo map[pymodel.FuncRef]*pymodel.Reach) []pymodel.Step {
	var best []pymodel.Step
	for _, cal := range p.ix.Callees(site) {
		if !cal.Func.Valid() || cal.Virtual {
			continue
		}
		rc, ok := memo[cal.Func]
		if !ok {
			rc = p.ix.Reachable([]pymodel.Start{{Func: cal.Func, Self: cal.Class}}, pymodel.ReachOptions{})
			memo[cal.Func] = rc
		}
		c := rc.Chain(target)
		if c == nil {
			continue
		}
		c[0].Site = site
		if best == nil || len(c) < len(best) {
			best = c
		}
	}
	return best
}

// excludedOnChain walks the chain back from the raising function,
// translating the excluded facts into each caller's names, and reports
// whether one of them holds at a call on the way.
func (p *Paths) excludedOnChain(chain []pymodel.Step, excluded []facts.Fact) bool {
	fs := excluded
	for i := len(chain) - 1; i >= 0 && len(fs) > 0; i-- {
		st := chain[i]
		callerFn := pymodel.FuncRef{File: st.Site.File, Func: p.ix.Call(st.Site).Func}
		for _, cal := range p.ix.Callees(st.Site) {
			if cal.Func == st.Func {
				fs = p.flow.ToCaller(st.Site, cal, fs)
				break
			}
		}
		r := p.guards.Result(callerFn)
		if r == nil {
			continue
		}
		node := p.ix.Call(st.Site).At.Node
		for _, f := range fs {
			if r.Holds(node, f) {
				return true
			}
		}
	}
	return false
}

// caughtOnChain reports a call on the chain made where its caller
// handles exc (see Handled).
func (p *Paths) caughtOnChain(chain []pymodel.Step, exc string) bool {
	for _, st := range chain {
		if st.Site.File < 0 {
			continue
		}
		call := p.ix.Call(st.Site)
		if p.Handled(pymodel.FuncRef{File: st.Site.File, Func: call.Func}, call.At.Node, exc) {
			return true
		}
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
// In a thread target the try must also sit inside a loop of the target:
// a handler around the whole request loop runs only once the loop is
// left, and the thread then returns, which ends it for every request.
func (p *Paths) Handled(fn pymodel.FuncRef, n syntax.NodeID, exc string) bool {
	f := p.File(fn.File)
	if f == nil || f.Tree == nil {
		return false
	}
	e, isEntry := p.EntryOf(fn)
	thread := isEntry && e.Kind == Thread && fn.Func >= 0
	for _, c := range cfg.Handlers(f.Tree, n, exc) {
		if c.RaisesAlways {
			continue
		}
		return !thread || insideLoop(f.Tree, c.Try, p.ix.Func(fn).Def)
	}
	return false
}

// insideLoop reports whether node n lies in the body of a while or for
// loop of the function def (not of a nested scope).
func insideLoop(t *syntax.Tree, n, def syntax.NodeID) bool {
	for m := n; m != def && m != syntax.NoNode; m = t.Parent(m) {
		p := t.Parent(m)
		if p == syntax.NoNode {
			return false
		}
		switch t.Kind(p) {
		case syntax.WhileStatement, syntax.ForStatement:
			if t.FieldOf(m) == syntax.FBody {
				return true
			}
		case syntax.FunctionDefinition, syntax.Lambda, syntax.ClassDefinition:
			return false
		}
	}
	return false
}
