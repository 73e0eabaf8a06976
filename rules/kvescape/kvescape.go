// Package kvescape is SGL006 kv-error-escapes-entry: an error met while
// serving one request escapes a KV entry that the scheduler (or the
// bootstrap server's HTTP layer) calls, instead of failing that request.
package kvescape

import (
	_ "embed"
	"fmt"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/kvfail"
	"github.com/sglint/sglint/rules/sendpath"
)

//go:embed doc.md
var doc string

// Record is the error record the rule derives from: its RuntimeError
// left the send path for the scheduler, and its tryCatchPattern says to
// handle it "rather than crashing".
const Record = "795554d942550d42"

// Rule SGL006 kv-error-escapes-entry.
var Rule = &analyzer.Rule{
	ID:           "SGL006",
	Name:         "kv-error-escapes-entry",
	Severity:     analyzer.Error,
	Title:        "An error of one request escapes a KV entry into the scheduler instead of failing that request",
	Doc:          doc,
	Record:       Record,
	RecordUse:    "Its RuntimeError left the send path for the scheduler; its tryCatchPattern deals with it without crashing and its handlingStrategy is validation: SGL006 asks every entry the scheduler calls to fail the one request instead.",
	RecordFields: []string{"tryCatchPattern", "handlingStrategy"},
	Sections:     []*analyzer.Section{sendpath.Section},
	Demand:       sendpath.Demand,
	MovedOptions: map[string]string{"raising-methods": "[tool.sglint.kv-scope] raising-methods"},
	Run:          run,
}

func run(pass *analyzer.Pass) error {
	if pass.Project == nil || pass.Project.Index == nil || pass.File.Model < 0 {
		return nil
	}
	res := kvfail.Of(pass)
	kvfail.ReportProject(pass, findingsKey{res},
		func() []analyzer.Diagnostic { return compute(pass.Project, res) })
	return nil
}

// findingsKey memoises the project's findings per failure analysis.
type findingsKey struct{ res *kvfail.Result }

// entryFindings are the escapes of one entry.
type entryFindings struct {
	entry sendpath.Entry
	items []kvfail.Item
}

func compute(proj *analyzer.Project, res *kvfail.Result) []analyzer.Diagnostic {
	recorded := map[recordedKey]bool{} // SGL010 reports these
	for _, s := range proj.RaiseSites {
		recorded[recordedKey{s.File, s.Stmt}] = true
	}
	var order []pymodel.FuncRef
	by := map[pymodel.FuncRef]*entryFindings{}
	for _, f := range res.Failures {
		if !f.PerRequest || f.Kind.Table() {
			continue // a table's KeyError is SGL004's
		}
		if file := res.Paths.File(f.Func.File); file != nil && recorded[recordedKey{file, f.Node}] {
			continue
		}
		for _, e := range f.Escapes {
			switch {
			case e.Entry.Kind == sendpath.Thread, e.Entry.Kind == sendpath.Executor:
				continue // SGL005's, or kept in a Future
			case e.Entry.Kind == sendpath.Queue && f.Kind == kvfail.Assert:
				continue // the scheduler's asserts state its own invariants
			case e.CallerHandles:
				continue
			case res.Paths.RaisesByContract(e.Entry):
				continue
			}
			g := by[e.Entry.Func]
			if g == nil {
				g = &entryFindings{entry: e.Entry}
				by[e.Entry.Func] = g
				order = append(order, e.Entry.Func)
			}
			g.items = append(g.items, kvfail.Item{Failure: f, Escape: e})
		}
	}
	var out []analyzer.Diagnostic
	for _, fn := range order {
		if d, ok := by[fn].diagnostic(res); ok {
			out = append(out, d)
		}
	}
	return out
}

type recordedKey struct {
	file *analyzer.File
	node syntax.NodeID
}

// maxNamed is how many sources a message names.
const maxNamed = 3

func (g *entryFindings) diagnostic(res *kvfail.Result) (analyzer.Diagnostic, bool) {
	items := kvfail.Sorted(g.items)
	top := items[0]
	file, at := res.EscapePoint(top.Failure, top.Escape)
	if file == nil {
		return analyzer.Diagnostic{}, false
	}
	t := file.Tree()
	ix := res.Paths.Index()
	name := res.Paths.ShortName(g.entry.Func)

	list := res.List(file, items, maxNamed)
	what := fmt.Sprintf("an error of one request escapes %s `%s`", g.entry.Kind, name)
	var fate string
	switch g.entry.Kind {
	case sendpath.Scheduler:
		fate = "the scheduler calls it from its event loop, so the scheduler fails, not just this request"
	case sendpath.Handler:
		fate = "the server answers 500 and logs a traceback, where the peer asking needs an answer it can act on"
	case sendpath.Queue:
		fate = "the scheduler runs this loop over its requests in its event loop, so the scheduler fails, not just this request"
	default:
		caller, ok := schedulerCaller(res, g.entry)
		if !ok {
			return analyzer.Diagnostic{}, false // who calls it, and whether it catches, is not known
		}
		fate = fmt.Sprintf("its caller `%s`, which the scheduler calls from its event loop, fails instead of this request", caller)
	}
	fix := "Catch it here and fail only this request"
	if g.entry.Kind == sendpath.Handler {
		fix = "Catch it here and answer with an error status the peer can act on (404, 503)"
	} else if ex, ok := res.FailureExample(g.entry.Func); ok {
		fix = "Catch it here and fail only this request with " + ex.Advice(ix)
	}
	if g.entry.Kind == sendpath.Scheduler && ix.Func(g.entry.Func).Name == "poll" {
		fix += ", and return the failed status"
	}
	msg := fmt.Sprintf("%s: %s; it can fail at %s (record %s). %s", what, fate, list, Record, fix)
	return analyzer.Diagnostic{
		Path: file.Path, Start: t.Start(at), End: t.End(at), Message: msg,
		Function: syntax.QualName(t, at), Related: res.Related(items),
	}, true
}

// schedulerCaller names the sender's or receiver's method, one the
// scheduler calls, that calls send entry e; false when no such method
// does (a send entry whose callers sglint does not see is not judged:
// they may catch).
func schedulerCaller(res *kvfail.Result, e sendpath.Entry) (string, bool) {
	ix := res.Paths.Index()
	for _, site := range ix.Callers(e.Func) {
		caller := pymodel.FuncRef{File: site.File, Func: ix.Call(site).Func}
		if ce, ok := res.Paths.EntryOf(caller); ok && ce.Kind == sendpath.Scheduler {
			return res.Paths.ShortName(caller), true
		}
	}
	return "", false
}
