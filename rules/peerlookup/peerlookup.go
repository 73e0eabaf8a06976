// Package peerlookup is SGL004 unchecked-peer-lookup: a send path reads a
// peer table with a plain subscript when nothing guarantees the key is
// there, and the KeyError is not confined to the current request.
package peerlookup

import (
	_ "embed"
	"fmt"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/peertable"
	"github.com/sglint/sglint/rules/sendpath"
)

//go:embed doc.md
var doc string

// Record is the error record the rule derives from.
const Record = "d0bf6111ca6909b6"

// Rule SGL004 unchecked-peer-lookup.
var Rule = &analyzer.Rule{
	ID:       "SGL004",
	Name:     "unchecked-peer-lookup",
	Severity: analyzer.Error,
	Title:    "Peer table subscript on a send path without a membership check or a per-request handler",
	Doc:      doc,
	Record:   Record,
	Sections: []*analyzer.Section{sendpath.Section},
	Demand:   sendpath.Demand,
	Run:      run,
}

func run(pass *analyzer.Pass) error {
	f := pass.File
	ix := pass.Project.Index
	if f.Model < 0 || ix == nil {
		return nil
	}
	var t *syntax.Tree // parsed again only when a use needs it (File.Tree)
	var paths *sendpath.Paths
	for tu := range peertable.New(ix).FileUses(f.Model, pymodel.Read, pymodel.ReadIndex) {
		u, fn, tab := tu.Use, tu.Func, tu.Table
		if paths == nil {
			paths = sendpath.Of(pass)
		}
		if !paths.OnPath(fn) {
			continue
		}
		if t == nil {
			t = f.Tree()
		}
		sub := t.Parent(u.At.Node)
		key, ok := keyOf(t, sub)
		if !ok {
			continue // a key we cannot name has no facts: stay silent
		}
		table := facts.Path(tu.Self + "." + u.Path)
		r := paths.Facts(fn)
		if r == nil || guarded(r, sub, table, key) {
			continue
		}
		l := leakOf(paths, fn, sub, table, key)
		if l == nil {
			continue
		}
		report(pass, paths, sub, table, key, tab, l)
	}
	return nil
}

// keyOf returns the key path of a single-key subscript (`t[req.peer]`,
// `t['x']`), false for slices, tuples and computed keys.
func keyOf(t *syntax.Tree, sub syntax.NodeID) (facts.Path, bool) {
	if sub == syntax.NoNode || t.Kind(sub) != syntax.Subscript {
		return "", false
	}
	p, ok := facts.PathOf(t, sub)
	if !ok {
		return "", false
	}
	// The key is what follows the table's own path inside the brackets.
	v, ok := facts.PathOf(t, t.Field(sub, syntax.FValue))
	if !ok || len(p) < len(v)+2 {
		return "", false
	}
	return p[len(v)+1 : len(p)-1], true
}

// guarded reports a membership or non-None fact for the key that holds on
// every path to the subscript.
func guarded(r *facts.Result, sub syntax.NodeID, table, key facts.Path) bool {
	if r.Holds(sub, facts.InFact(table, key)) {
		return true
	}
	entry := table + "[" + key + "]"
	return r.Holds(sub, facts.NotNoneFact(entry)) || r.Holds(sub, facts.NonEmptyFact(entry))
}

func report(pass *analyzer.Pass, paths *sendpath.Paths, sub syntax.NodeID,
	table, key facts.Path, tab *peertable.Table, l *leak) {
	t := pass.File.Tree()
	ix := paths.Index()
	entryName := paths.ShortName(l.entry.Func)
	var fate string
	switch {
	case l.exits:
		fate = fmt.Sprintf("the handler at line %d ends the process, so one missing key stops every transfer of %s `%s`, not just this request", l.reraise.Line, l.entry.Kind, entryName)
	case l.entry.Kind == sendpath.Thread && l.reraise != nil:
		fate = fmt.Sprintf("the handler at line %d raises again, so the error ends transfer thread `%s` and every request queued on it stalls", l.reraise.Line, entryName)
	case l.entry.Kind == sendpath.Thread && l.outsideLoop != nil && l.leavesLoop:
		fate = fmt.Sprintf("the handler at line %d leaves the request loop, so transfer thread `%s` returns and every request queued on it stalls", l.outsideLoop.Line, entryName)
	case l.entry.Kind == sendpath.Thread && l.outsideLoop != nil:
		fate = fmt.Sprintf("the handler at line %d catches it only after leaving the request loop, so transfer thread `%s` returns and every request queued on it stalls", l.outsideLoop.Line, entryName)
	case l.entry.Kind == sendpath.Thread:
		fate = fmt.Sprintf("no handler catches it, so it ends transfer thread `%s` and every request queued on it stalls", entryName)
	case l.entry.Kind == sendpath.Executor:
		fate = sendpath.UnreadFuture(entryName, "it")
	case l.entry.Kind == sendpath.Handler:
		fate = fmt.Sprintf("no handler answers this request with an error, so it escapes request handler `%s`: the server answers 500 and logs a traceback, where the peer asking needs a 404 or 503 it can act on", entryName)
	case l.entry.Kind == sendpath.Scheduler && l.reraise != nil:
		fate = fmt.Sprintf("the handler at line %d raises again, so the error escapes `%s` into the scheduler that calls it from its event loop: the scheduler fails, not just this request", l.reraise.Line, entryName)
	case l.entry.Kind == sendpath.Scheduler:
		fate = fmt.Sprintf("no handler fails just this request, so the error escapes `%s` into the scheduler that calls it from its event loop: the scheduler fails, not just this request", entryName)
	case l.reraise != nil:
		fate = fmt.Sprintf("the handler at line %d raises again, so the error escapes %s `%s` into code outside the send path instead of failing this request", l.reraise.Line, l.entry.Kind, entryName)
	default:
		fate = fmt.Sprintf("no handler fails just this request, so the error escapes %s `%s` into code outside the send path", l.entry.Kind, entryName)
	}
	// The key is often a peer, but not always (a room, a request id): the
	// message says what is known, that it was never added or was removed.
	msg := fmt.Sprintf("`%s[%s]` raises KeyError when `%s` was never added to the table or was removed, "+
		"and nothing checks that it is there; %s (record %s). "+
		"Look it up with `%s.get(%s)` and fail only this request when it is missing, "+
		"or check `%s in %s` first",
		table, key, key, fate, Record, table, key, key, table)

	var related []analyzer.Related
	if l.reraise != nil {
		related = append(related, *l.reraise)
	}
	if l.outsideLoop != nil {
		related = append(related, *l.outsideLoop)
	}
	related = append(related, chainRelated(paths, l.chain)...)
	if l.entry.Kind == sendpath.Thread && l.entry.Site.File >= 0 {
		if sf := paths.File(l.entry.Site.File); sf != nil {
			at := ix.Call(l.entry.Site).At
			related = append(related, analyzer.Related{Path: sf.Path, Line: int(at.Line), Column: int(at.Col),
				Message: fmt.Sprintf("transfer thread `%s` is started here", entryName)})
		}
	}
	if w := firstWrite(paths, tab); w != nil {
		related = append(related, *w)
	}
	pass.Report(analyzer.Diagnostic{
		Start:    t.Start(sub),
		End:      t.End(sub),
		Message:  msg,
		Function: syntax.QualName(t, sub),
		Related:  related,
	})
}

// firstWrite locates the first by-key store into the table, where peers
// are added.
func firstWrite(paths *sendpath.Paths, tab *peertable.Table) *analyzer.Related {
	ix := paths.Index()
	for _, w := range tab.Writes {
		f := paths.File(w.File)
		if f == nil {
			continue
		}
		at := ix.Use(w).At
		return &analyzer.Related{Path: f.Path, Line: int(at.Line), Column: int(at.Col),
			Message: fmt.Sprintf("peers are added to `%s` here", tab.Attr)}
	}
	return nil
}

// chainRelated turns the calls of an escape's chain into related
// locations ("calls `C.send_kvcache`").
func chainRelated(paths *sendpath.Paths, chain []pymodel.Step) []analyzer.Related {
	ix := paths.Index()
	var out []analyzer.Related
	for _, st := range chain {
		if st.Site.File < 0 {
			continue
		}
		f := paths.File(st.Site.File)
		if f == nil {
			continue
		}
		at := ix.Call(st.Site).At
		out = append(out, analyzer.Related{Path: f.Path, Line: int(at.Line), Column: int(at.Col),
			Message: paths.StepMessage(st)})
	}
	return out
}
