// Package peerlookup is SGL004 unchecked-peer-lookup: a send path reads a
// peer table with a plain subscript when nothing guarantees the key is
// there, and the KeyError is not confined to the current request.
package peerlookup

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/kvfail"
	"github.com/sglint/sglint/rules/peertable"
	"github.com/sglint/sglint/rules/sendpath"
)

//go:embed doc.md
var doc string

// Record is the error record the rule derives from.
const Record = "d0bf6111ca6909b6"

// Rule SGL004 unchecked-peer-lookup.
var Rule = &analyzer.Rule{
	ID:           "SGL004",
	Name:         "unchecked-peer-lookup",
	Severity:     analyzer.Error,
	Title:        "Peer table subscript on a send path without a membership check or a per-request handler",
	Doc:          doc,
	Record:       Record,
	RecordUse:    "The record's validationCode looks the peer up with .get and checks the result is not None: SGL004 reports the plain lookup that skips that check, where its KeyError ends a thread or escapes an entry.",
	RecordFields: []string{"validationCode"},
	Sections:     []*analyzer.Section{sendpath.Section},
	Demand:       sendpath.Demand,
	Run:          run,
}

func run(pass *analyzer.Pass) error {
	f := pass.File
	ix := pass.Project.Index
	if f.Model < 0 || ix == nil {
		return nil
	}
	var t *syntax.Tree // parsed again only when a use needs it (File.Tree)
	var paths *sendpath.Paths
	finder := peertable.New(ix)
	for _, kind := range []struct {
		kind pymodel.UseKind
		op   pymodel.UseOp
	}{{pymodel.Read, pymodel.ReadIndex}, {pymodel.Mutate, pymodel.MutPop}, {pymodel.Mutate, pymodel.MutDelItem}} {
		for tu := range finder.FileUses(f.Model, kind.kind, kind.op) {
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
			l, ok := kvfail.TableOpAt(t, u)
			if !ok {
				continue // a key we cannot name has no facts: stay silent
			}
			table := facts.Path(tu.Self + "." + u.Path)
			r := paths.Facts(fn)
			if r == nil || !l.Computed && kvfail.Guarded(r, l.Node, table, l.Key) ||
				l.Computed && !kvfail.Unchecked(t, ix.Func(fn).Def, table) {
				continue
			}
			lk := leakOf(paths, fn, l.Node, table, l.Key)
			if lk == nil {
				continue
			}
			report(pass, paths, l, table, tab, lk)
		}
	}
	// Lookups through a local bound to the table (`peers = self.peers`).
	for _, fn := range ix.FuncsOf(f.Model) {
		if paths == nil {
			paths = sendpath.Of(pass)
		}
		if !paths.OnPath(fn) || !usesTable(ix, fn) {
			continue
		}
		if t == nil {
			t = f.Tree()
		}
		r := paths.Facts(fn)
		if r == nil {
			continue
		}
		for _, op := range kvfail.AliasOps(finder, fn, t, ix.Func(fn).Def) {
			if kvfail.GuardedAlias(r, op) {
				continue
			}
			table := facts.Path(op.Local)
			lk := leakOf(paths, fn, op.Node, table, op.Key)
			if lk == nil {
				continue
			}
			report(pass, paths, op.TableOp, table, op.Use.Table, lk)
		}
	}
	return nil
}

// usesTable reports a function that reads some attribute of self plainly
// (what binding a local to a table takes): most functions on send paths
// do, but a cheap test spares the others a walk of their tree.
func usesTable(ix *pymodel.Index, fn pymodel.FuncRef) bool {
	s := ix.Summary(fn.File)
	for i := range s.Uses {
		if u := &s.Uses[i]; u.Func == fn.Func && u.Self && u.Kind == pymodel.Read && u.Op == pymodel.ReadPlain && u.Path != "" {
			return true
		}
	}
	return false
}

func report(pass *analyzer.Pass, paths *sendpath.Paths, lk kvfail.TableOp,
	table facts.Path, tab *peertable.Table, l *leak) {
	key := lk.Key
	t := pass.File.Tree()
	ix := paths.Index()
	entryName := paths.ShortName(l.entry.Func)
	var fate string
	noun, loss := "", ""
	if l.entry.Kind == sendpath.Thread {
		noun, loss = paths.ThreadLoss(l.entry.Func)
	}
	switch {
	case l.exits:
		fate = fmt.Sprintf("the handler at line %d ends the process, so one missing key stops every transfer of %s `%s`, not just this request", l.reraise.Line, l.entry.Kind, entryName)
	case l.entry.Kind == sendpath.Thread && l.reraise != nil:
		fate = fmt.Sprintf("the handler at line %d raises again, so the error ends %s `%s` and %s", l.reraise.Line, noun, entryName, loss)
	case l.entry.Kind == sendpath.Thread && l.outsideLoop != nil && l.leavesLoop:
		fate = fmt.Sprintf("the handler at line %d leaves the request loop, so %s `%s` returns and %s", l.outsideLoop.Line, noun, entryName, loss)
	case l.entry.Kind == sendpath.Thread && l.outsideLoop != nil:
		fate = fmt.Sprintf("the handler at line %d catches it only after leaving the request loop, so %s `%s` returns and %s", l.outsideLoop.Line, noun, entryName, loss)
	case l.entry.Kind == sendpath.Thread:
		fate = fmt.Sprintf("no handler catches it, so it ends %s `%s` and %s", noun, entryName, loss)
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
	unchecked := "nothing checks that it is there"
	if o := otherTableCheck(t, lk, table); o != nil {
		unchecked = fmt.Sprintf("the check at line %d is of `%s`, not of this table, which gains and loses keys apart from it", o.line, o.table)
	}
	var msg string
	switch lk.Op {
	case pymodel.MutPop:
		msg = fmt.Sprintf("`%s.pop(%s)` raises KeyError when `%s` was never added to the table or was already removed, "+
			"and %s; %s (record %s). "+
			"Remove it with `%s.pop(%s, None)`, or check `%s in %s` first",
			table, key, key, unchecked, fate, Record, table, key, key, table)
	case pymodel.MutDelItem:
		msg = fmt.Sprintf("`del %s[%s]` raises KeyError when `%s` was never added to the table or was already removed, "+
			"and %s; %s (record %s). "+
			"Remove it with `%s.pop(%s, None)`, or check `%s in %s` first",
			table, key, key, unchecked, fate, Record, table, key, key, table)
	default:
		msg = fmt.Sprintf("`%s[%s]` raises KeyError when `%s` was never added to the table or was removed, "+
			"and %s; %s (record %s). "+
			"Look it up with `%s.get(%s)` and fail only this request when it is missing, "+
			"or check `%s in %s` first",
			table, key, key, unchecked, fate, Record, table, key, key, table)
	}
	sub := lk.Node

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
				Message: fmt.Sprintf("%s `%s` is started here", noun, entryName)})
		}
	}
	if w := firstWrite(paths, tab); w != nil {
		related = append(related, *w)
	}
	related = append(related, removals(paths, tab, pass.File.Path, t, lk.Node)...)
	pass.Report(analyzer.Diagnostic{
		Start:    t.Start(lk.Span),
		End:      t.End(lk.Span),
		Message:  msg,
		Function: syntax.QualName(t, sub),
		Related:  related,
	})
}

// firstWrite locates the first by-key store into the table, worded with
// the key it stores (`required_prefill_response_num_table[bootstrap_room]`
// holds a count per room, not a peer).
func firstWrite(paths *sendpath.Paths, tab *peertable.Table) *analyzer.Related {
	ix := paths.Index()
	for _, w := range tab.Writes {
		f := paths.File(w.File)
		if f == nil {
			continue
		}
		u := ix.Use(w)
		at := u.At
		msg := fmt.Sprintf("keys are added to `%s` here", tab.Attr)
		if wt := f.Tree(); wt != nil {
			if k := facts.SubscriptKey(wt, wt.Parent(at.Node)); k != syntax.NoNode {
				msg = fmt.Sprintf("`%s[%s]` is set here", tab.Attr, oneLine(wt.Text(k)))
			}
		}
		return &analyzer.Related{Path: f.Path, Line: int(at.Line), Column: int(at.Col), Message: msg}
	}
	return nil
}

// maxRemovals bounds the removal sites shown.
const maxRemovals = 2

// removals locates where keys leave the table (`pop`, `del`, `clear()`),
// anywhere in the project and through any object holding it (a sender's
// `self.kv_mgr.request_status`): a lookup racing one of them is the
// failure. The lookup's own statement is left out.
func removals(paths *sendpath.Paths, tab *peertable.Table, path string, t *syntax.Tree, at syntax.NodeID) []analyzer.Related {
	ix := paths.Index()
	var out []analyzer.Related
	// Kills of another class's table of the same name are not this one's:
	// keep those in the table's family or in a file that writes to it.
	files := map[int32]bool{}
	for _, w := range tab.Writes {
		files[w.File] = true
	}
	family := map[pymodel.UseRef]bool{}
	for _, u := range tab.Uses {
		family[u] = true
	}
	for _, k := range ix.AttrKills(tab.Attr) {
		if !family[k] && !files[k.File] {
			continue
		}
		u := ix.Use(k)
		var how string
		switch u.Op {
		case pymodel.MutPop, pymodel.MutPopitem:
			how = "pop"
		case pymodel.MutDelItem:
			how = "del"
		case pymodel.MutClear:
			how = "clear()"
		default:
			continue
		}
		f := paths.File(k.File)
		if f == nil || f.Path == path && t.Contains(at, u.At.Node) {
			continue
		}
		out = append(out, analyzer.Related{Path: f.Path, Line: int(u.At.Line), Column: int(u.At.Col),
			Message: fmt.Sprintf("keys are removed from `%s` here (%s, %s)", tab.Attr, how, ix.Func(pymodel.FuncRef{File: k.File, Func: u.Func}).QualName)})
		if len(out) == maxRemovals {
			break
		}
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

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

// otherCheck is a membership test of the lookup's key against another
// table, earlier in the same function.
type otherCheck struct {
	line  int
	table facts.Path
}

// otherTableCheck finds `key in self.other`, `key not in self.other` or
// `self.other.get(key)` before the lookup: a check the reader takes for
// this table's, which it is not.
func otherTableCheck(t *syntax.Tree, lk kvfail.TableOp, table facts.Path) *otherCheck {
	def := t.Ancestor(lk.Node, syntax.FunctionDefinition)
	if def == syntax.NoNode || lk.Key == "" {
		return nil
	}
	before := t.StartByte(lk.Node)
	for n := range t.OwnScope(def) {
		if t.StartByte(n) >= before {
			continue
		}
		switch t.Kind(n) {
		case syntax.ComparisonOperator:
			for _, f := range facts.TestFacts(t, n, true) {
				if (f.Kind == facts.In || f.Kind == facts.NotIn) && f.Key == lk.Key && f.Path != table {
					return &otherCheck{line: t.Start(n).Line, table: f.Path}
				}
			}
		case syntax.Call:
			fn := t.Field(n, syntax.FFunction)
			if t.Kind(fn) != syntax.Attribute || !t.TextIs(t.Field(fn, syntax.FAttribute), "get") {
				continue
			}
			recv, ok := facts.PathOf(t, t.Field(fn, syntax.FObject))
			if !ok || recv == table {
				continue
			}
			if k, ok := facts.PathOf(t, t.NamedChild(t.Field(n, syntax.FArguments), 0)); ok && k == lk.Key {
				return &otherCheck{line: t.Start(n).Line, table: recv}
			}
		}
	}
	return nil
}
