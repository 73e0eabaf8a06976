// Package recordraise is SGL010 record-raise-reachable: for every error
// record loaded (--records, `records = [...]`), an entry point that
// reaches one of the record's raise sites through the call graph, with
// nothing on the way that fails only the current request and no check
// that excludes the raising condition, can fail with the record's error.
//
// How it decides, per raise site (see package records for the sites):
//   - the raising function must be on a send path (rules/sendpath): an
//     outermost entry (send entries by name, thread and executor targets,
//     configured entries) reaches it; the search goes up the callers on
//     send paths, breadth first, to each outermost entry;
//   - along each call chain, from the entry down, the facts that hold at
//     each call (package facts: checks that dominate the call) become the
//     callee's entry facts, translated through the call's bindings (the
//     receiver to self, arguments to parameters). If the facts at the
//     raise then contradict each other (the entry checked `self.descs` and
//     returned when empty, the raise needs it empty), the chain is gated;
//   - a call inside an except clause that catches the record's class and
//     does not raise again on every path keeps the error in (the handler
//     fails the current request); so does such a handler around the raise;
//   - a chain that is reached, not gated and not handled is a finding, at
//     the entry's call into the chain (at the raise when the entry raises
//     itself), once per call and record.
//
// The state a record's validationCode checks (records.Required) gives more
// sites: its other uses on KV paths that fail without the check, judged
// the same way and reported at the use (uses.go).
package recordraise

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/kvfail"
	"github.com/sglint/sglint/rules/sendpath"
)

//go:embed doc.md
var doc string

// Rule SGL010 record-raise-reachable.
var Rule = &analyzer.Rule{
	ID:             "SGL010",
	Name:           "record-raise-reachable",
	Severity:       analyzer.Warning,
	Title:          "An entry point can fail with a recorded production error",
	Doc:            doc,
	RelatedIsChain: true,
	Sections:       []*analyzer.Section{sendpath.Section},
	Demand:         sendpath.Demand,
	Run:            run,
}

// key memoises the project-wide search per send-path view.
type key struct{ paths *sendpath.Paths }

func run(pass *analyzer.Pass) error {
	proj := pass.Project
	if proj.Records.Len() == 0 || proj.Index == nil {
		return nil
	}
	paths := sendpath.Of(pass)
	v := proj.Shared(key{paths}, func() any { return findings(proj, paths) })
	fs, _ := v.([]finding)
	if len(fs) == 0 {
		return nil
	}
	for i := range fs {
		if fs[i].File == pass.File {
			report(pass, paths, &fs[i])
		}
	}
	return nil
}

func report(pass *analyzer.Pass, paths *sendpath.Paths, f *finding) {
	t := pass.File.Tree()
	d := analyzer.Diagnostic{
		Start:    t.Start(f.Node),
		End:      t.End(f.Node),
		Message:  message(paths, f),
		Function: syntax.QualName(t, f.Node),
		Record:   f.Record.ID,
		Related:  related(paths, f),
	}
	pass.Report(d)
}

// message says what can escape, from where, under which condition, why
// it matters, and what the record advises.
func message(paths *sendpath.Paths, f *finding) string {
	if f.Use != nil {
		return useMessage(paths, f)
	}
	ix := paths.Index()
	r := f.Record
	var b strings.Builder
	raised := fmt.Sprintf("%s(%q)", r.ErrorClass, f.Site.Template.String())
	entry := fmt.Sprintf("%s `%s`", f.Entry.Kind, ix.Func(f.Entry.Func).QualName)
	if len(f.Chain) == 0 {
		fmt.Fprintf(&b, "%s raises %s%s", entry, raised, condition(f))
	} else {
		fmt.Fprintf(&b, "%s from `%s` can escape %s through this call%s", raised, ix.Func(f.Raise).QualName, entry, condition(f))
	}
	b.WriteString(": no check on the way excludes it and no handler fails just the request, so ")
	b.WriteString(stops(paths, f.Entry))
	cite(&b, r)
	b.WriteString("; hint: " + fix(paths, f))
	return b.String()
}

// fix is the advice, in the rule's words from the record's
// handlingStrategy, naming the backend's own way to fail one request
// when it has one; the record's first prevention tip follows.
func fix(paths *sendpath.Paths, f *finding) string {
	fail := "fail only this request"
	if ex, ok := kvfail.FailureExample(paths, f.Entry.Func); ok {
		fail += " with " + ex.Advice(paths.Index())
	}
	if f.Entry.Kind == sendpath.Thread {
		fail = strings.Replace(fail, "this request", "the request at hand", 1)
	}
	var b strings.Builder
	switch {
	case f.Use != nil:
		check := "if not " + string(f.Use.Read)
		if f.Use.Need.Kind == facts.NotNone {
			check = "if " + string(f.Use.Read) + " is None"
		}
		fmt.Fprintf(&b, "check it first, as the record's raise site does (`%s:`), and %s", check, fail)
	case len(f.Chain) == 0:
		fmt.Fprintf(&b, "instead of raising, %s", fail)
	case strings.EqualFold(f.Record.HandlingStrategy, "try-catch") && f.Entry.Kind == sendpath.Thread:
		fmt.Fprintf(&b, "catch `%s` inside the loop and %s", f.Record.ClassName(), fail)
	case strings.EqualFold(f.Record.HandlingStrategy, "try-catch"):
		fmt.Fprintf(&b, "catch `%s` here and %s", f.Record.ClassName(), fail)
	default:
		fmt.Fprintf(&b, "check for it before this call and %s", fail)
	}
	if tip := strings.TrimSpace(f.Record.FirstTip()); tip != "" {
		b.WriteString("; the record advises: " + strings.TrimSuffix(tip, "."))
	}
	return b.String()
}

// stops says what the error ends, by the kind of entry it escapes.
func stops(paths *sendpath.Paths, e sendpath.Entry) string {
	switch e.Kind {
	case sendpath.Thread:
		return "the thread ends instead of one request failing"
	case sendpath.Executor:
		return sendpath.UnreadFuture(paths.Index().Func(e.Func).QualName, "it")
	case sendpath.Scheduler, sendpath.Queue:
		return "the scheduler's event loop fails instead of one request"
	case sendpath.Handler:
		return "the bootstrap server answers 500 instead of failing one request"
	}
	return "the caller fails instead of one request"
}

func cite(b *strings.Builder, r *records.Record) {
	fmt.Fprintf(b, " (record %s", r.ID)
	if r.Slug != "" {
		b.WriteString(" " + r.Slug)
	}
	b.WriteString(")")
}

// useMessage words a use of the state a record's checks name: what fails
// and how, which check the record makes, what stops, and the fix.
func useMessage(paths *sendpath.Paths, f *finding) string {
	u := f.Use
	t := f.File.Tree()
	expr := strings.Join(strings.Fields(t.Text(u.Node)), " ")
	bad, good := "is empty", "non-empty"
	if u.Need.Kind == facts.NotNone {
		bad, good = "is None", "not None"
	}
	var b strings.Builder
	read := "`" + string(u.Read) + "`"
	if u.Read != u.State {
		read += " (bound to `" + string(u.State) + "`)"
	}
	fmt.Fprintf(&b, "`%s` raises %s when %s %s, which the record's %s checks is %s before its raise",
		expr, u.Exc, read, bad, u.Need.Field, good)
	entry := fmt.Sprintf("%s `%s`", f.Entry.Kind, paths.Index().Func(f.Entry.Func).QualName)
	if len(f.Chain) == 0 {
		fmt.Fprintf(&b, "; nothing in %s checks it", entry)
	} else {
		fmt.Fprintf(&b, "; nothing on the way from %s checks it", entry)
	}
	b.WriteString(" and no handler fails just the request, so ")
	b.WriteString(stops(paths, f.Entry))
	cite(&b, f.Record)
	b.WriteString("; hint: " + fix(paths, f))
	return b.String()
}

// condition is " when X" in the entry's names, else the raise's own
// tests; "" when the raise is under no test sglint can read.
func condition(f *finding) string {
	if len(f.Cond) > 0 {
		parts := make([]string, 0, len(f.Cond))
		for _, c := range f.Cond {
			parts = append(parts, describe(c))
		}
		return " when " + strings.Join(parts, " and ")
	}
	t := f.Site.File.Tree()
	if text := records.CondText(t, f.Site.Conds); text != "" {
		return " when `" + text + "`"
	}
	return ""
}

// related walks the chain: the entry, each call after the reported one,
// and the raise.
func related(paths *sendpath.Paths, f *finding) []analyzer.Related {
	ix := paths.Index()
	var out []analyzer.Related
	if ef := paths.File(f.Entry.Func.File); ef != nil {
		at := ix.Func(f.Entry.Func).NameAt
		out = append(out, analyzer.Related{Path: ef.Path, Line: int(at.Line), Column: int(at.Col),
			Message: fmt.Sprintf("%s `%s`", f.Entry.Kind, ix.Func(f.Entry.Func).QualName)})
	}
	for i, site := range f.Chain {
		cf := paths.File(site.File)
		if cf == nil {
			continue
		}
		callee := f.Raise
		if i+1 < len(f.Chain) {
			callee = pymodel.FuncRef{File: f.Chain[i+1].File, Func: ix.Call(f.Chain[i+1]).Func}
		}
		at := ix.Call(site).At
		out = append(out, analyzer.Related{Path: cf.Path, Line: int(at.Line), Column: int(at.Col),
			Message: fmt.Sprintf("calls `%s`", ix.Func(callee).QualName)})
	}
	if f.Use != nil {
		return out // the use is the finding's own place
	}
	s := f.Site
	t := s.File.Tree()
	pos := t.Start(s.Stmt)
	msg := fmt.Sprintf("raises %s", f.Record.ErrorClass)
	if text := records.CondText(t, s.Conds); text != "" {
		msg += " when `" + text + "`"
	}
	out = append(out, analyzer.Related{Path: s.File.Path, Line: pos.Line, Column: pos.Column,
		Message: msg + " (record " + f.Record.ID + ")"})
	return out
}
