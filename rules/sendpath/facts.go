package sendpath

import (
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Facts on send paths come from the engine's interprocedural layer
// (pymodel.Flow, Project.Flow): each function's facts include what its
// callees guarantee on return (a helper that raises when `self.descs` is
// empty leaves it non-empty) and lose what they may empty or rebind, and
// Guards adds, for every function on a send path, the facts that hold at
// its entry on every send path: the intersection over its call sites in
// send-path functions of the facts there (checks in callers that dominate
// the call), translated through the receiver and the path arguments
// (`self.kv_mgr.descs` in the caller is `self.descs` in the callee).
// Outermost entries start with what every project caller checked before
// the call (nothing when they have no project caller, or are threads).

// computeFacts runs the guards over the send paths.
func (p *Paths) computeFacts(waits []string) {
	fl := p.Project.Flow
	if fl == nil || fl.Index() != p.ix || waits != nil {
		fl = pymodel.NewFlow(p.ix, func(fi int32) *syntax.Tree {
			if f := p.File(fi); f != nil {
				return f.Tree()
			}
			return nil
		}, waits)
	}
	p.flow = fl
	// An outermost entry that only code calls (not a thread or a task) is
	// judged under the checks all its callers make, on send paths or not:
	// a scheduler that checks before it calls protects the entry.
	p.guards = fl.GuardsCalled(p.sendReach, func(fn pymodel.FuncRef) bool {
		e, ok := p.EntryOf(fn)
		return ok && e.Kind != Thread && e.Kind != Executor && !p.isThreadTarget(fn)
	})
}

// isThreadTarget reports a function some code starts as a thread or task,
// whatever entry kind it has here.
func (p *Paths) isThreadTarget(fn pymodel.FuncRef) bool {
	for _, e := range p.ix.Entries() {
		if e.Func == fn {
			return true
		}
	}
	return false
}

// Flow is the facts layer the paths were analysed with.
func (p *Paths) Flow() *pymodel.Flow { return p.flow }

// Facts returns the facts of fn, a function on a send path, under its
// entry facts. nil when fn is not on a send path or has no tree.
//
// A function only the disaggregation queues reach is analysed on demand,
// with no entry facts: the queues' paths are asked about a few raises,
// not checked use by use.
func (p *Paths) Facts(fn pymodel.FuncRef) *facts.Result {
	if r := p.guards.Result(fn); r != nil || !p.queueOnly[fn] {
		return r
	}
	return p.flow.Analyze(fn, nil)
}

// EntryFacts returns what holds at fn's start on every send path, in fn's
// names.
func (p *Paths) EntryFacts(fn pymodel.FuncRef) []facts.Fact { return p.guards.Entry(fn) }

// PostFacts returns what fn guarantees when it returns normally, in its own
// names (its self and parameters).
func (p *Paths) PostFacts(fn pymodel.FuncRef) []facts.Fact { return p.flow.Post(fn) }

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
