// Package kvfail is failure confinement on KV paths: what can fail while
// one request is served there, and where each failure goes.
//
// sglang's invariant (records 795554d942550d42 and d0bf6111ca6909b6, see
// their handlingStrategy and tryCatchPattern): an error met while serving
// one request on a KV path must end as that request's failure
// (`record_failure(room, reason)` and `update_status(room, KVPoll.Failed)`,
// or the backend's equivalent). It must never end a KV thread, nor escape
// into the scheduler's event loop.
//
// A Source is a statement that can fail while a request is served: an
// explicit raise, an assert, a lookup of a peer table that may miss
// (`t[k]`, `t.pop(k)`, `del t[k]`), or a call into a third-party API that
// the project itself shows raising. Sources are found in every function a
// KV entry reaches (rules/sendpath); sendpath.Escapes then says which
// entries each one escapes, with the checks made on the way (a caller's
// check that excludes it) and the handlers that fail only the request
// (sendpath.Handled) taken into account. Rules read the result through Of.
//
// What matters is whether the failure is confined, not the syntax of the
// guard: `t[k]`, `assert k in t`, `t.pop(k)` and `.get(k)` followed by
// `raise KeyError` all fail the same way, and are all sources.
package kvfail

import (
	"cmp"
	"slices"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/sendpath"
)

// Kind says what a source is.
type Kind uint8

const (
	Raise  Kind = iota + 1 // raise E(...)
	Assert                 // assert test
	Lookup                 // self.t[k] on a peer table, no membership known
	Pop                    // self.t.pop(k) without a default
	Delete                 // del self.t[k]
	Call                   // a third-party call the project shows raising
)

// Table reports the kinds that read or remove a peer table's key (SGL004
// reports them itself).
func (k Kind) Table() bool { return k == Lookup || k == Pop || k == Delete }

// Source is one statement or expression that can fail while a request is
// served on a KV path.
type Source struct {
	Kind Kind
	Func pymodel.FuncRef
	Node syntax.NodeID // the raise or assert statement, the subscript, the pop or other call, the del statement
	Line int
	// Exc is the exception class: as written for a raise, AssertionError,
	// KeyError, or Exception for a call (its class is not known).
	Exc string
	// Text is the source as a message shows it, one line: `raise
	// RuntimeError("staging failed")`, `assert msg[0] == GUARD`,
	// `self.t.pop(k)`, `self.agent.transfer(h)`.
	Text string
	// PerRequest: what makes it fail depends on the request being served
	// (its data, its peer, what a transfer returned), not only on the
	// process's configuration. A source that fails for every request or
	// for none (`assert self.mode == PREFILL`) is a programming error that
	// the first request shows; rules about one request's failure skip it.
	PerRequest bool
	// Table and Key are the peer table and key of a table source.
	Table, Key facts.Path
	keyNode    syntax.NodeID

	site sendpath.RaiseSite
}

// Failure is a source with the entries it escapes.
type Failure struct {
	*Source
	Escapes []sendpath.Escape
}

// Result is the failures of one project's KV paths.
type Result struct {
	Paths    *sendpath.Paths
	Failures []Failure // in KV-path order of their functions, then source order
}

// resultKey memoises Of per KV-path configuration.
type resultKey struct{ paths *sendpath.Paths }

// Of returns the failures of pass's project, computed once per project
// and kv-scope settings.
func Of(pass *analyzer.Pass) *Result {
	paths := sendpath.Of(pass)
	v := pass.Project.Shared(resultKey{paths}, func() any { return compute(pass.Project, paths) })
	return v.(*Result)
}

func compute(proj *analyzer.Project, paths *sendpath.Paths) *Result {
	res := &Result{Paths: paths}
	fns := paths.Funcs()
	known := knownRaising(paths)
	ta := newTaint(paths)
	per := make([][]Failure, len(fns))
	pymodel.ForEach(len(fns), func(i int) {
		for _, s := range sourcesIn(paths, ta, fns[i], known) {
			if es := paths.Escapes(s.site); len(es) > 0 {
				per[i] = append(per[i], Failure{Source: s, Escapes: es})
			}
		}
	})
	res.Failures = slices.Concat(per...)
	return res
}

// EscapePoint is where an escape leaves its entry's own body: the entry's
// call into the path, or the source itself when the entry holds it.
func (r *Result) EscapePoint(f Failure, e sendpath.Escape) (*analyzer.File, syntax.NodeID) {
	if e.Call.File < 0 {
		return r.Paths.File(f.Func.File), f.Node
	}
	return r.Paths.File(e.Call.File), r.Paths.Index().Call(e.Call).At.Node
}

// Rank orders sources for a message: explicit raises first (the code
// says it fails), then calls, asserts and table lookups; within a kind,
// the one fewer calls away, then source order.
func Rank(a, b Failure, ea, eb sendpath.Escape) int {
	order := func(k Kind) int {
		switch k {
		case Raise:
			return 0
		case Call:
			return 1
		case Assert:
			return 2
		}
		return 3
	}
	return cmp.Or(cmp.Compare(order(a.Kind), order(b.Kind)), cmp.Compare(len(ea.Chain), len(eb.Chain)),
		cmp.Compare(a.Func.File, b.Func.File), cmp.Compare(a.Line, b.Line))
}

// ReportProject reports the findings of pass's file among a project's
// findings, which compute makes once per project and key (the first pass
// to ask computes them; the others wait and read).
func ReportProject(pass *analyzer.Pass, key any, compute func() []analyzer.Diagnostic) {
	diags := pass.Project.Shared(key, func() any { return compute() }).([]analyzer.Diagnostic)
	for _, d := range diags {
		if d.Path == pass.File.Path {
			pass.Report(d)
		}
	}
}
