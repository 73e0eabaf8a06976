package sendpath

import (
	"slices"

	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Futures. A function submitted to an executor does not end a thread when
// it raises: the executor keeps the exception in the Future that submit
// returned, and `future.result()` raises it again where the submitting
// code waits. So an executor task whose Future is read is, for its
// exceptions, called at each `.result()` (its joins): a handler there that
// fails one request deals with them, and without one they go on up the
// submitting function's own callers. Facts do not cross a join: the task
// starts with nothing known, as a thread does.
//
// Joins are found in the function that calls submit, by shape:
//   - `executor.submit(f, ...).result()`;
//   - `fut = executor.submit(f, ...)`, then `fut.result()`;
//   - futures gathered in a list (`futs = [executor.submit(...) for ...]`,
//     `futs.append(executor.submit(...))`), then `.result()` on the
//     variable of a loop over the list or over a call given the list
//     (`for f in as_completed(futs): f.result()`).

// computeJoins records the joins of every executor entry whose submitting
// function runs on a send path.
func (p *Paths) computeJoins() {
	for _, e := range p.entries {
		if e.Kind != Executor || e.Site.File < 0 {
			continue
		}
		caller := pymodel.FuncRef{File: e.Site.File, Func: p.ix.Call(e.Site).Func}
		if caller.Func < 0 || !p.OnKVPath(caller) {
			continue
		}
		f := p.File(e.Site.File)
		if f == nil {
			continue
		}
		for _, n := range futureReads(f.Tree(), p.ix.Call(e.Site).At.Node, p.ix.Func(caller).Def) {
			if site, ok := p.ix.CallAt(e.Site.File, n); ok {
				if p.joins == nil {
					p.joins = map[pymodel.FuncRef][]pymodel.CallSite{}
				}
				p.joins[e.Func] = append(p.joins[e.Func], site)
			}
		}
	}
}

// Joins returns the `.result()` calls where the exceptions of executor
// task fn surface (nil when fn is no such task, or its Future is not read
// on a send path).
func (p *Paths) Joins(fn pymodel.FuncRef) []pymodel.CallSite { return p.joins[fn] }

// IsJoin reports whether site is a `.result()` where the exceptions of
// executor task fn surface (a step of a chain into fn).
func (p *Paths) IsJoin(site pymodel.CallSite, fn pymodel.FuncRef) bool {
	return slices.Contains(p.joins[fn], site)
}

// StepMessage says what a chain step's call does, for related locations:
// "calls `C.m`", or for a join "reads the Future of `C.m`, which raises
// its error again here".
func (p *Paths) StepMessage(st pymodel.Step) string {
	if p.IsJoin(st.Site, st.Func) {
		return "reads the Future of `" + p.ShortName(st.Func) + "`, which raises its error again here"
	}
	return "calls `" + p.ShortName(st.Func) + "`"
}

// futureReads lists the `.result()` calls in def's own scope that read the
// Future of the submit call at node submit (see the shapes above).
func futureReads(t *syntax.Tree, submit, def syntax.NodeID) []syntax.NodeID {
	up := t.ParenTop(submit)
	p := t.Parent(up)
	if p == syntax.NoNode {
		return nil
	}
	// submit(...).result()
	if t.Kind(p) == syntax.Attribute && t.FieldOf(up) == syntax.FObject && t.TextIs(t.Field(p, syntax.FAttribute), "result") {
		if c := t.Parent(p); c != syntax.NoNode && t.Kind(c) == syntax.Call {
			return []syntax.NodeID{c}
		}
		return nil
	}
	// fut = submit(...)
	if name := assignedName(t, up); name != "" {
		return resultCalls(t, def, func(recv syntax.NodeID) bool { return t.Kind(recv) == syntax.Identifier && t.TextIs(recv, name) })
	}
	// A list of futures: the comprehension's element, or an append.
	list := ""
	switch {
	case t.Kind(p) == syntax.ListComprehension && t.FieldOf(up) == syntax.FBody:
		list = assignedName(t, p)
	case t.Kind(p) == syntax.ArgumentList:
		if c := t.Parent(p); c != syntax.NoNode && t.Kind(c) == syntax.Call {
			if fn := t.Field(c, syntax.FFunction); t.Kind(fn) == syntax.Attribute && t.TextIs(t.Field(fn, syntax.FAttribute), "append") {
				if o := t.Field(fn, syntax.FObject); t.Kind(o) == syntax.Identifier {
					list = t.Text(o)
				}
			}
		}
	}
	if list == "" {
		return nil
	}
	return resultCalls(t, def, func(recv syntax.NodeID) bool { return loopsOver(t, recv, list) })
}

// assignedName is the name n is assigned to as a whole (`name = n`).
func assignedName(t *syntax.Tree, n syntax.NodeID) string {
	p := t.Parent(n)
	if p == syntax.NoNode || t.Kind(p) != syntax.Assignment || t.FieldOf(n) != syntax.FRight {
		return ""
	}
	if l := t.Field(p, syntax.FLeft); l != syntax.NoNode && t.Kind(l) == syntax.Identifier {
		return t.Text(l)
	}
	return ""
}

// resultCalls lists the calls `x.result(...)` in def's own scope whose
// receiver x satisfies recvOK.
func resultCalls(t *syntax.Tree, def syntax.NodeID, recvOK func(syntax.NodeID) bool) []syntax.NodeID {
	var out []syntax.NodeID
	for n := range t.OwnScope(def) {
		if t.Kind(n) != syntax.Call {
			continue
		}
		fn := t.Field(n, syntax.FFunction)
		if fn == syntax.NoNode || t.Kind(fn) != syntax.Attribute || !t.TextIs(t.Field(fn, syntax.FAttribute), "result") {
			continue
		}
		if recvOK(t.Unparen(t.Field(fn, syntax.FObject))) {
			out = append(out, n)
		}
	}
	return out
}

// loopsOver reports whether name recv is the variable of a loop (or a
// comprehension clause) enclosing it that iterates over list, directly or
// through a call given it (`as_completed(list)`).
func loopsOver(t *syntax.Tree, recv syntax.NodeID, list string) bool {
	if t.Kind(recv) != syntax.Identifier {
		return false
	}
	name := t.Text(recv)
	for m := recv; m != syntax.NoNode; m = t.Parent(m) {
		var left, right syntax.NodeID
		switch t.Kind(m) {
		case syntax.ForStatement:
			left, right = t.Field(m, syntax.FLeft), t.Field(m, syntax.FRight)
		case syntax.ListComprehension, syntax.SetComprehension, syntax.GeneratorExpression, syntax.DictionaryComprehension:
			for c := range t.NamedChildren(m) {
				if t.Kind(c) == syntax.ForInClause && t.TextIs(t.Field(c, syntax.FLeft), name) {
					left, right = t.Field(c, syntax.FLeft), t.Field(c, syntax.FRight)
				}
			}
		case syntax.FunctionDefinition, syntax.Lambda, syntax.ClassDefinition:
			return false
		default:
			continue
		}
		if left == syntax.NoNode || !t.TextIs(left, name) {
			continue
		}
		r := t.Unparen(right)
		if t.Kind(r) == syntax.Identifier && t.TextIs(r, list) {
			return true
		}
		if t.Kind(r) == syntax.Call {
			if args := t.Field(r, syntax.FArguments); args != syntax.NoNode {
				for a := range t.NamedChildren(args) {
					if t.Kind(a) == syntax.Identifier && t.TextIs(a, list) {
						return true
					}
				}
			}
		}
		return false
	}
	return false
}
