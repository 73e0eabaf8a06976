package dropped

import (
	"fmt"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/syntax"
)

// The second shape: the loop collects the entries it keeps
// (`undone.append(req)`) and the method then makes that list the queue
// (`self.queue = undone`). An entry is dropped on every path through one
// iteration that neither keeps it, hands it on, nor ends it.

// outcome of the statements of one iteration, for the paths through them.
type outcome uint8

const (
	fallsThrough outcome = iota // some path reaches the end without settling the entry
	settled                     // every path settles it, or leaves the loop (raise, return)
	drops                       // some path leaves the iteration (continue, break) unsettled
)

// verdict is an outcome and, when the entry is not settled, where the
// unsettled path goes: the continue, or the branch that falls through.
type verdict struct {
	out outcome
	at  syntax.NodeID
}

// checkKept reports the loop l when the method rebuilds its queue from a
// list the loop appends its entries to and some path through an
// iteration leaves the entry out.
func (c *checker) checkKept(l loop) {
	t := c.t
	kept := c.keptList(l)
	if kept == "" {
		return
	}
	body := t.Field(l.node, syntax.FBody)
	v := c.block(l, body)
	if v.out == settled {
		return
	}
	at := v.at
	if at == syntax.NoNode {
		at = l.node
	}
	item := c.itemName(l)
	how := "this path reaches the end of the iteration"
	if v.out == drops {
		how = "this path leaves the iteration"
	}
	msg := fmt.Sprintf("%s is left out of `%s` here: %s without keeping it in `%s`, handing it on or giving it a "+
		"terminal status, and `%s` is then rebuilt from `%s`, so the request is dropped: the scheduler stops "+
		"tracking a request whose client still waits, and its KV slots are not freed (record %s). Keep it "+
		"(`%s.append(...)`) or end it (`prepare_abort(req, reason)` and `stream_output`) on this path",
		item, l.queue, how, kept, l.queue, kept, Record, kept)
	c.pass.ReportNode(at, msg, analyzer.RelatedAt(c.pass.File, l.node, "the loop over the queue"))
}

// keptList is the name K of a local list the loop appends an entry to
// when, after the loop, the function assigns `self.<queue> = K`.
func (c *checker) keptList(l loop) string {
	t := c.t
	end := t.SubtreeEnd(c.def)
	for n := t.SubtreeEnd(l.node); n < end; n++ {
		if t.Kind(n) != syntax.Assignment {
			continue
		}
		left, right := t.Field(n, syntax.FLeft), t.Unparen(t.Field(n, syntax.FRight))
		if left == syntax.NoNode || right == syntax.NoNode || t.Text(left) != l.queue || t.Kind(right) != syntax.Identifier {
			continue
		}
		k := t.Text(right)
		for m := range t.OwnScope(l.node) { // an append in a nested def is another scope's
			if t.Kind(m) == syntax.Call && calledName(t, m) == "append" {
				fn := t.Field(m, syntax.FFunction)
				if t.TextIs(t.Field(fn, syntax.FObject), k) && c.mentionsItem(l, t.Field(m, syntax.FArguments)) {
					return k
				}
			}
		}
	}
	return ""
}

func (c *checker) itemName(l loop) string {
	t := c.t
	for _, nm := range identifiers(t, t.Field(l.node, syntax.FLeft)) {
		if l.items[nm] {
			return "`" + nm + "`"
		}
	}
	return "the request"
}

// block evaluates the statements of a block in order.
func (c *checker) block(l loop, b syntax.NodeID) verdict {
	t := c.t
	if b == syntax.NoNode {
		return verdict{fallsThrough, syntax.NoNode}
	}
	last := verdict{fallsThrough, b}
	for s := t.FirstChild(b); s != syntax.NoNode; s = t.NextSibling(s) {
		if !t.IsNamed(s) {
			continue
		}
		v := c.stmt(l, s)
		switch v.out {
		case settled, drops:
			return v
		}
		if v.at != syntax.NoNode {
			last = v // the innermost place a path fell through, for the report
		}
	}
	return last
}

// stmt evaluates one statement for the paths through it.
func (c *checker) stmt(l loop, s syntax.NodeID) verdict {
	t := c.t
	switch t.Kind(s) {
	case syntax.ContinueStatement, syntax.BreakStatement:
		return verdict{drops, s}
	case syntax.RaiseStatement, syntax.ReturnStatement:
		// Leaves the loop and the method before the queue is rebuilt: the
		// request stays queued (an escaping raise is SGL006's).
		return verdict{settled, syntax.NoNode}
	case syntax.AssertStatement:
		if cond := t.Unparen(t.NamedChild(s, 0)); cond != syntax.NoNode && t.Kind(cond) == syntax.False {
			return verdict{settled, syntax.NoNode}
		}
	case syntax.IfStatement:
		return c.ifStmt(l, s)
	case syntax.TryStatement, syntax.WithStatement:
		return c.block(l, t.Field(s, syntax.FBody))
	case syntax.ExpressionStatement, syntax.Assignment, syntax.AugmentedAssignment:
		if c.settles(l, s) {
			return verdict{settled, syntax.NoNode}
		}
	}
	return verdict{fallsThrough, syntax.NoNode}
}

// ifStmt: every branch settles, or one drops, or some fall through (an
// if without else falls through when no condition holds).
func (c *checker) ifStmt(l loop, s syntax.NodeID) verdict {
	t := c.t
	branches := []syntax.NodeID{t.Field(s, syntax.FConsequence)}
	owners := []syntax.NodeID{s}
	conds := []syntax.NodeID{t.Field(s, syntax.FCondition)}
	hasElse := false
	for alt := range t.FieldAll(s, syntax.FAlternative) {
		switch t.Kind(alt) {
		case syntax.ElifClause:
			branches = append(branches, t.Field(alt, syntax.FConsequence))
			owners = append(owners, alt)
			conds = append(conds, t.Field(alt, syntax.FCondition))
		case syntax.ElseClause:
			branches = append(branches, t.Field(alt, syntax.FBody))
			owners = append(owners, alt)
			hasElse = true
		}
	}
	for _, cond := range conds {
		if cond != syntax.NoNode && c.settles(l, cond) {
			// A condition that ends the entry on its own paths
			// (`if self.handle_pending_bootstrap(req, poll):`, which
			// aborts a failed one): taken as settling every path.
			return verdict{settled, syntax.NoNode}
		}
	}
	all := true
	fell := syntax.NoNode
	for i, b := range branches {
		v := c.block(l, b)
		switch v.out {
		case drops:
			return v
		case fallsThrough:
			all = false
			if fell == syntax.NoNode {
				fell = owners[i]
			}
		}
	}
	if !hasElse && !dispatch(t, conds) {
		// No branch runs when no condition holds. A chain over a class's
		// constants (`poll == KVPoll.Success`, ...) is taken to cover the
		// states that can occur there.
		all = false
		if fell == syntax.NoNode {
			fell = s
		}
	}
	if all {
		return verdict{settled, syntax.NoNode}
	}
	return verdict{fallsThrough, fell}
}

// dispatch: every condition compares with a class constant (an attribute
// of a capitalised name, `KVPoll.Success`).
func dispatch(t *syntax.Tree, conds []syntax.NodeID) bool {
	for _, cond := range conds {
		found := false
		for n := cond; cond != syntax.NoNode && n < t.SubtreeEnd(cond) && !found; n++ {
			if t.Kind(n) != syntax.Attribute {
				continue
			}
			obj := t.Field(n, syntax.FObject)
			if obj != syntax.NoNode && t.Kind(obj) == syntax.Identifier {
				if name := t.Text(obj); name != "" && name[0] >= 'A' && name[0] <= 'Z' {
					found = true
				}
			}
		}
		if !found {
			return false
		}
	}
	return len(conds) > 0
}
