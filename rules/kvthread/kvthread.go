// Package kvthread is SGL005 kv-thread-dies: a KV thread's loop (the
// transfer, bootstrap, decode, heartbeat or staging thread a KV class
// starts) in which the error of one iteration ends the thread, so that
// every later request on the rank waits for a thread that is gone.
package kvthread

import (
	_ "embed"
	"fmt"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/kvfail"
	"github.com/sglint/sglint/rules/sendpath"
)

//go:embed doc.md
var doc string

// Record is the error record the rule derives from: its tryCatchPattern
// handles the error inside transfer_worker (mark the peer stale,
// re-register) instead of letting it end the thread, and its tags name
// the transfer worker.
const Record = "d0bf6111ca6909b6"

// Rule SGL005 kv-thread-dies.
var Rule = &analyzer.Rule{
	ID:           "SGL005",
	Name:         "kv-thread-dies",
	Severity:     analyzer.Error,
	Title:        "A KV thread's loop ends when serving one request fails",
	Doc:          doc,
	Record:       Record,
	RecordUse:    "Its tryCatchPattern handles the error inside the transfer worker (mark the peer stale, register again) instead of ending the thread, and its tags name that worker: SGL005 asks every KV thread loop to confine one request's error so.",
	RecordFields: []string{"tryCatchPattern", "tags"},
	Sections:     []*analyzer.Section{sendpath.Section},
	Demand:       sendpath.Demand,
	Run:          run,
}

func run(pass *analyzer.Pass) error {
	if pass.Project == nil || pass.Project.Index == nil || pass.File.Model < 0 {
		return nil
	}
	res := kvfail.Of(pass)
	kvfail.ReportProject(pass, findingsKey{res}, func() []analyzer.Diagnostic { return compute(res) })
	return nil
}

// findingsKey memoises the project's findings per failure analysis.
type findingsKey struct{ res *kvfail.Result }

// loop is one KV thread loop and what ends it.
type loop struct {
	entry sendpath.Entry
	file  *analyzer.File
	node  syntax.NodeID // the loop statement
	items []kvfail.Item
	// reraise is the first handler inside the loop that raises again (or
	// ends the process); leaves one that returns or breaks out of it;
	// outside one around the loop. At most the first of each.
	reraise, leaves, outside *cfg.Catch
}

func compute(res *kvfail.Result) []analyzer.Diagnostic {
	ix := res.Paths.Index()
	var loops []*loop
	byNode := map[loopKey]*loop{}
	for _, f := range res.Failures {
		if !f.PerRequest {
			continue // fails for every request or none: the first one shows it
		}
		for _, e := range f.Escapes {
			if e.Entry.Kind != sendpath.Thread {
				continue
			}
			file, pt := res.EscapePoint(f, e)
			if file == nil {
				continue
			}
			t := file.Tree()
			def := ix.Func(e.Entry.Func).Def
			ln := outermostLoop(t, pt, def)
			if ln == syntax.NoNode {
				continue // before or after the loop: no request is being served
			}
			k := loopKey{file, ln}
			l := byNode[k]
			if l == nil {
				l = &loop{entry: e.Entry, file: file, node: ln}
				byNode[k] = l
				loops = append(loops, l)
			}
			l.items = append(l.items, kvfail.Item{Failure: f, Escape: e})
			l.noteHandlers(t, pt, f.Exc, def)
		}
	}
	var out []analyzer.Diagnostic
	for _, l := range loops {
		if d, ok := l.diagnostic(res); ok {
			out = append(out, d)
		}
	}
	return out
}

type loopKey struct {
	file *analyzer.File
	node syntax.NodeID
}

// outermostLoop is the outermost while or for statement of the function
// defined at def whose body holds n (NoNode when none does).
func outermostLoop(t *syntax.Tree, n, def syntax.NodeID) syntax.NodeID {
	found := syntax.NoNode
	for m := n; m != def && m != syntax.NoNode; m = t.Parent(m) {
		p := t.Parent(m)
		if p == syntax.NoNode {
			break
		}
		switch t.Kind(p) {
		case syntax.WhileStatement, syntax.ForStatement:
			if t.FieldOf(m) == syntax.FBody {
				found = p
			}
		case syntax.FunctionDefinition, syntax.Lambda, syntax.ClassDefinition:
			return found
		}
	}
	return found
}

// noteHandlers records the handlers of the thread function that let an
// error of class exc raised at pt end the loop.
func (l *loop) noteHandlers(t *syntax.Tree, pt syntax.NodeID, exc string, def syntax.NodeID) {
	for _, h := range cfg.Handlers(t, pt, exc) {
		inside := t.Contains(l.node, h.Try) && h.Try != l.node
		switch {
		case h.RaisesAlways && inside:
			if l.reraise == nil {
				c := h
				l.reraise = &c
			}
			continue // the next one out decides
		case h.RaisesAlways:
			continue
		case !inside:
			if l.outside == nil {
				c := h
				l.outside = &c
			}
		case !sendpath.KeepsLoop(t, h, def):
			if l.leaves == nil {
				c := h
				l.leaves = &c
			}
		}
		return
	}
}

// maxNamed is how many sources a message names.
const maxNamed = 3

func (l *loop) diagnostic(res *kvfail.Result) (analyzer.Diagnostic, bool) {
	// A raise in a handler of the loop passes on what the try body
	// raised: the handler is the finding's location (when a source of
	// its own reaches it), not a source.
	var items []kvfail.Item
	t := l.file.Tree()
	for _, it := range l.items {
		if it.Func == l.entry.Func && inHandler(t, it.Node, l.node) {
			continue
		}
		items = append(items, it)
	}
	// A loop whose only sources are table lookups with no handler that
	// ends it is SGL004's finding alone: its fix is the lookup's.
	tableOnly := true
	for _, it := range items {
		tableOnly = tableOnly && it.Kind.Table()
	}
	if len(items) == 0 || tableOnly && l.reraise == nil && l.leaves == nil {
		return analyzer.Diagnostic{}, false
	}
	items = kvfail.Sorted(items)

	ix := res.Paths.Index()
	name := res.Paths.ShortName(l.entry.Func)
	at, end := t.Start(l.node), loopHeadEnd(t, l.node)
	var how string
	var related []analyzer.Related
	switch {
	case l.reraise != nil && l.reraise.ExitsAlways:
		at, end = t.Start(l.reraise.Clause), clauseHeadEnd(t, l.reraise.Clause)
		how = "this handler ends the process"
	case l.reraise != nil:
		at, end = t.Start(l.reraise.Clause), clauseHeadEnd(t, l.reraise.Clause)
		how = "this handler raises again, so the error leaves the loop"
	case l.leaves != nil:
		at, end = t.Start(l.leaves.Clause), clauseHeadEnd(t, l.leaves.Clause)
		how = "this handler leaves the loop"
	case l.outside != nil:
		how = fmt.Sprintf("the handler at line %d runs only after the loop is left", t.Start(l.outside.Clause).Line)
		related = append(related, analyzer.RelatedAt(l.file, l.outside.Clause, "this handler runs after the loop is left"))
	default:
		how = "nothing in the loop catches the error of one iteration"
	}
	list := res.List(l.file, items, maxNamed)
	related = append(related, res.Related(items)...)
	fail := "fail the request it belongs to"
	if ex, ok := res.FailureExample(l.entry.Func); ok {
		fail = "fail the request it belongs to with " + ex.Advice(ix)
	}
	fix := "Catch the error inside the loop and let the loop go on: " + fail + ", or log and skip what belongs to no request"
	_, loss := res.Paths.ThreadLoss(l.entry.Func)
	msg := fmt.Sprintf("KV thread `%s` ends when serving one request fails: %s, and %s; "+
		"it can fail at %s (record %s). %s",
		name, how, loss, list, Record, fix)
	if l.entry.Site.File >= 0 {
		if sf := res.Paths.File(l.entry.Site.File); sf != nil {
			c := ix.Call(l.entry.Site).At
			related = append(related, analyzer.Related{Path: sf.Path, Line: int(c.Line), Column: int(c.Col),
				Message: fmt.Sprintf("thread `%s` is started here", name)})
		}
	}
	return analyzer.Diagnostic{
		Path: l.file.Path, Start: at, End: end, Message: msg,
		Function: syntax.QualName(t, l.node), Related: related,
	}, true
}

// inHandler reports a node inside an except clause that lies in loop.
func inHandler(t *syntax.Tree, n, loop syntax.NodeID) bool {
	for m := t.Parent(n); m != syntax.NoNode && m != loop; m = t.Parent(m) {
		if k := t.Kind(m); k == syntax.ExceptClause || k == syntax.ExceptGroupClause {
			return true
		}
	}
	return false
}

// loopHeadEnd is the end of a loop's header: its condition, or the
// iterable of a for loop.
func loopHeadEnd(t *syntax.Tree, n syntax.NodeID) syntax.Position {
	for _, f := range []syntax.Field{syntax.FCondition, syntax.FRight} {
		if c := t.Field(n, f); c != syntax.NoNode {
			return t.End(c)
		}
	}
	return t.End(n)
}

// clauseHeadEnd is the end of an except clause's header (its type, or
// the keyword).
func clauseHeadEnd(t *syntax.Tree, c syntax.NodeID) syntax.Position {
	end := t.Start(c)
	for ch := range t.NamedChildren(c) {
		if t.Kind(ch) == syntax.Block {
			break
		}
		end = t.End(ch)
	}
	if end == t.Start(c) {
		end.Column += len("except")
	}
	return end
}
