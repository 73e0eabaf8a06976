// Package dropped is SGL008 kv-request-dropped: a disaggregation queue's
// loop removes a request from its queue on a path that neither hands the
// request on (to the list the loop returns, another queue) nor gives it a
// terminal status (aborts it, streams its end), so the scheduler stops
// tracking a request whose client is still waiting.
package dropped

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/kvfail"
	"github.com/sglint/sglint/rules/sendpath"
)

//go:embed doc.md
var doc string

// Record is the error record the rule derives from: its tryCatchPattern
// keeps a request that cannot go on queued ("queue the send until ...
// rather than crashing") instead of letting it vanish.
const Record = "795554d942550d42"

// Rule SGL008 kv-request-dropped.
var Rule = &analyzer.Rule{
	ID:           "SGL008",
	Name:         "kv-request-dropped",
	Severity:     analyzer.Error,
	Title:        "A disaggregation queue drops a request without handing it on or giving it a terminal status",
	Doc:          doc,
	Record:       Record,
	RecordUse:    "Its tryCatchPattern keeps a request that cannot go on queued rather than losing it: SGL008 asks a queue loop to hand every request it takes off the queue on, or to end it.",
	RecordFields: []string{"tryCatchPattern"},
	Sections:     []*analyzer.Section{sendpath.Section},
	Demand:       sendpath.Demand,
	Run:          run,
}

func run(pass *analyzer.Pass) error {
	f := pass.File
	ix := pass.Project.Index
	if f.Summary == nil || ix == nil || f.Model < 0 || int(f.Model) >= len(ix.Files) {
		return nil
	}
	paths := sendpath.Of(pass)
	t := f.Tree()
	s := ix.Summary(f.Model)
	for fi := range s.Functions {
		fn := pymodel.FuncRef{File: f.Model, Func: int32(fi)}
		if e, ok := paths.EntryOf(fn); !ok || e.Kind != sendpath.Queue {
			continue
		}
		c := &checker{pass: pass, ix: ix, t: t, fn: fn, def: s.Functions[fi].Def}
		c.checkLoops()
	}
	return nil
}

type checker struct {
	pass *analyzer.Pass
	ix   *pymodel.Index
	t    *syntax.Tree
	fn   pymodel.FuncRef
	def  syntax.NodeID
}

// loop is a for loop over a queue attribute.
type loop struct {
	node  syntax.NodeID
	queue string          // the queue iterated, `self.queue`
	index string          // the index from enumerate, "" if none
	items map[string]bool // the names bound to the queue's entries (and what zip pairs with them)
}

func (c *checker) checkLoops() {
	for n := range c.t.OwnScope(c.def) {
		if c.t.Kind(n) != syntax.ForStatement {
			continue
		}
		if l, ok := c.queueLoop(n); ok {
			c.checkMarks(l)
			c.checkKept(l)
		}
	}
}

// queueLoop matches `for x in self.q`, `for i, x in enumerate(self.q)` and
// the same over `zip(self.q, ...)`, where q names a queue.
func (c *checker) queueLoop(n syntax.NodeID) (loop, bool) {
	t := c.t
	it := t.Unparen(t.Field(n, syntax.FRight))
	target := t.Field(n, syntax.FLeft)
	enumerated := false
	if inner, ok := wrapped(t, it, "enumerate"); ok {
		enumerated, it = true, inner
	}
	if inner, ok := wrapped(t, it, "zip"); ok {
		it = inner
	}
	if inner, ok := wrapped(t, it, "list"); ok {
		it = inner
	}
	if it == syntax.NoNode || t.Kind(it) != syntax.Attribute || !strings.HasPrefix(t.Text(it), "self.") ||
		!strings.Contains(strings.ToLower(t.Text(t.Field(it, syntax.FAttribute))), "queue") || target == syntax.NoNode {
		return loop{}, false
	}
	l := loop{node: n, queue: t.Text(it), items: map[string]bool{}}
	names := identifiers(t, target)
	if enumerated {
		if len(names) < 2 {
			return loop{}, false
		}
		l.index, names = names[0], names[1:]
	}
	for _, nm := range names {
		l.items[nm] = true
	}
	return l, true
}

// wrapped: n is `name(x, ...)`; returns x.
func wrapped(t *syntax.Tree, n syntax.NodeID, name string) (syntax.NodeID, bool) {
	if n == syntax.NoNode || t.Kind(n) != syntax.Call {
		return syntax.NoNode, false
	}
	fn := t.Field(n, syntax.FFunction)
	args := t.Field(n, syntax.FArguments)
	if fn == syntax.NoNode || t.Kind(fn) != syntax.Identifier || !t.TextIs(fn, name) || args == syntax.NoNode {
		return syntax.NoNode, false
	}
	return t.Unparen(t.NamedChild(args, 0)), true
}

func identifiers(t *syntax.Tree, n syntax.NodeID) []string {
	var out []string
	for m := n; m < t.SubtreeEnd(n); m++ {
		if t.Kind(m) == syntax.Identifier {
			out = append(out, t.Text(m))
		}
	}
	return out
}

// checkMarks finds the removals of the loop's entry from its queue and
// reports those whose iteration neither hands the entry on nor concludes
// it.
func (c *checker) checkMarks(l loop) {
	t := c.t
	body := t.Field(l.node, syntax.FBody)
	for n := range t.OwnScope(l.node) { // a loop's body, like a function's
		if t.Kind(n) != syntax.Call || !c.removes(l, n) {
			continue
		}
		stmt := t.Parent(n)
		if stmt == syntax.NoNode || t.Kind(stmt) != syntax.ExpressionStatement {
			continue
		}
		if c.iterationSettles(l, stmt, body) {
			continue
		}
		c.report(l, n)
	}
}

// removes: call n takes the loop's entry out of the queue: `q.remove(x)`,
// or `S.add(i)` / `S.append(i)` with the entry's index, where the
// function later rebuilds the queue without the indices in S (`self.q =
// [e for j, e in enumerate(self.q) if j not in S]`).
func (c *checker) removes(l loop, n syntax.NodeID) bool {
	t := c.t
	fn := t.Field(n, syntax.FFunction)
	args := t.Field(n, syntax.FArguments)
	if fn == syntax.NoNode || t.Kind(fn) != syntax.Attribute || args == syntax.NoNode {
		return false
	}
	recv, method := t.Field(fn, syntax.FObject), t.Text(t.Field(fn, syntax.FAttribute))
	arg := t.Unparen(t.NamedChild(args, 0))
	if arg == syntax.NoNode || t.Kind(arg) != syntax.Identifier {
		return false
	}
	switch method {
	case "remove":
		return t.Text(recv) == l.queue && l.items[t.Text(arg)]
	case "add", "append":
		return l.index != "" && t.TextIs(arg, l.index) && t.Kind(recv) == syntax.Identifier &&
			c.rebuildsWithout(l, t.Text(recv))
	}
	return false
}

// rebuildsWithout: after the loop, the function assigns the queue a value
// that filters out the indices collected in set.
func (c *checker) rebuildsWithout(l loop, set string) bool {
	t := c.t
	end := t.SubtreeEnd(c.def)
	for n := t.SubtreeEnd(l.node); n < end; n++ {
		if t.Kind(n) != syntax.Assignment {
			continue
		}
		left, right := t.Field(n, syntax.FLeft), t.Field(n, syntax.FRight)
		if left != syntax.NoNode && right != syntax.NoNode && t.Text(left) == l.queue &&
			strings.Contains(strings.Join(strings.Fields(t.Text(right)), " "), "not in "+set) {
			return true
		}
	}
	return false
}

// iterationSettles reports whether the statements that run in the same
// iteration as the removal stmt (stmt's siblings in each block from it up
// to the loop body, whatever their order) hand the entry on or conclude
// it.
func (c *checker) iterationSettles(l loop, stmt, body syntax.NodeID) bool {
	t := c.t
	for a := stmt; a != syntax.NoNode && a != l.node; a = t.Parent(a) {
		p := t.Parent(a)
		if p == syntax.NoNode {
			break
		}
		if t.Kind(p) != syntax.Block {
			continue
		}
		for s := t.FirstChild(p); s != syntax.NoNode; s = t.NextSibling(s) {
			if s != a && t.IsNamed(s) && c.settles(l, s) {
				return true
			}
		}
		if p == body {
			break
		}
	}
	return false
}

// settles: statement s hands an entry on (appends, extends or puts it
// somewhere, returns or yields it) or concludes it (a call named like an
// abort, a failure or a finish, stream_output, or a project function that
// makes such a call; setting its finished_reason).
func (c *checker) settles(l loop, s syntax.NodeID) bool {
	t := c.t
	for n := s; n < t.SubtreeEnd(s); n++ {
		switch t.Kind(n) {
		case syntax.Call:
			name := calledName(t, n)
			if kvfail.EndsRequest(name) {
				return true
			}
			if handOff[name] && c.mentionsItem(l, t.Field(n, syntax.FArguments)) {
				return true
			}
			if c.mentionsItem(l, t.Field(n, syntax.FArguments)) && c.calleeConcludes(n) {
				return true
			}
		case syntax.ReturnStatement, syntax.Yield:
			if c.mentionsItem(l, n) {
				return true
			}
		case syntax.Assignment:
			if left := t.Field(n, syntax.FLeft); left != syntax.NoNode && strings.HasSuffix(t.Text(left), "finished_reason") {
				return true
			}
		}
	}
	return false
}

// handOff are the methods that put an entry into another container.
var handOff = map[string]bool{"append": true, "extend": true, "appendleft": true, "put": true, "put_nowait": true, "insert": true}

func calledName(t *syntax.Tree, call syntax.NodeID) string {
	fn := t.Field(call, syntax.FFunction)
	switch {
	case fn == syntax.NoNode:
		return ""
	case t.Kind(fn) == syntax.Attribute:
		return t.Text(t.Field(fn, syntax.FAttribute))
	case t.Kind(fn) == syntax.Identifier:
		return t.Text(fn)
	}
	return ""
}

func (c *checker) mentionsItem(l loop, n syntax.NodeID) bool {
	t := c.t
	if n == syntax.NoNode {
		return false
	}
	for m := n; m < t.SubtreeEnd(n); m++ {
		if t.Kind(m) == syntax.Identifier && l.items[t.Text(m)] {
			return true
		}
	}
	return false
}

// calleeConcludes: the project function the call runs makes a concluding
// call itself.
func (c *checker) calleeConcludes(call syntax.NodeID) bool {
	site, ok := c.ix.CallAt(c.fn.File, call)
	if !ok {
		return false
	}
	for _, cal := range c.ix.Callees(site) {
		if !cal.Func.Valid() {
			continue
		}
		cs := c.ix.Summary(cal.Func.File)
		for _, in := range c.ix.CallsIn(cal.Func) {
			if kvfail.EndsRequest(cs.Calls[in.Call].Name) {
				return true
			}
		}
	}
	return false
}

func (c *checker) report(l loop, n syntax.NodeID) {
	t := c.t
	items := make([]string, 0, len(l.items))
	for _, nm := range identifiers(t, t.Field(l.node, syntax.FLeft)) {
		if l.items[nm] {
			items = append(items, nm)
		}
	}
	item := "the request"
	if len(items) > 0 {
		item = "`" + items[0] + "`"
	}
	msg := fmt.Sprintf("%s is removed from `%s` here, but nothing in this iteration hands it on (to the list this loop "+
		"returns, another queue) or gives it a terminal status: the scheduler stops tracking a request whose client "+
		"still waits, and its KV slots and metadata buffer are not freed (record %s). Abort it first "+
		"(`prepare_abort(req, reason)` and `stream_output`), or hand it on to the next queue",
		item, l.queue, Record)
	c.pass.ReportNode(n, msg, analyzer.RelatedAt(c.pass.File, l.node, "the loop over the queue"))
}
