package kvfail

import (
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/peertable"
)

// AliasOp is a lookup of a peer table through a local name bound to it
// (`peers = self.peers` ... `peers[k]`): it fails as the table's own
// lookup does.
type AliasOp struct {
	TableOp
	Use   peertable.SelfUse // the table read the local is bound to
	Local string
	Table facts.Path // the table as self's path (`self.peers`)
}

// AliasOps finds, in function fn of tree t, the subscripts of locals bound
// once, by a plain assignment, to a peer table. The facts about the key
// are looked up under both names (the engine's aliases carry them across).
func AliasOps(finder *peertable.Finder, fn pymodel.FuncRef, t *syntax.Tree, def syntax.NodeID) []AliasOp {
	aliases := map[string]peertable.SelfUse{}
	for tu := range finder.FuncUses(fn) {
		u := tu.Use
		if u.Kind != pymodel.Read || u.Op != pymodel.ReadPlain {
			continue
		}
		n := u.At.Node
		asg := t.Parent(n)
		if asg == syntax.NoNode || t.Kind(asg) != syntax.Assignment || t.FieldOf(n) != syntax.FRight {
			continue
		}
		if l := t.Field(asg, syntax.FLeft); t.Kind(l) == syntax.Identifier {
			aliases[t.Text(l)] = tu
		}
	}
	if len(aliases) == 0 {
		return nil
	}
	// A name bound more than once may hold something else where it is read.
	bindings := map[string]int{}
	for n := range t.OwnScope(def) {
		if t.Kind(n) == syntax.Identifier && !t.IsLoad(n) && t.FieldOf(n) != syntax.FAttribute {
			bindings[t.Text(n)]++
		}
	}
	var out []AliasOp
	for n := range t.OwnScope(def) {
		if t.Kind(n) != syntax.Subscript {
			continue
		}
		v := t.Field(n, syntax.FValue)
		if t.Kind(v) != syntax.Identifier {
			continue
		}
		tu, ok := aliases[t.Text(v)]
		if !ok || bindings[t.Text(v)] != 1 {
			continue
		}
		if ctx := t.Parent(n); ctx != syntax.NoNode && (t.Kind(ctx) == syntax.Assignment || t.Kind(ctx) == syntax.AugmentedAssignment) && t.FieldOf(n) == syntax.FLeft {
			continue // a store
		}
		if t.Ancestor(n, syntax.DeleteStatement) != syntax.NoNode {
			continue
		}
		key, ok := KeyOf(t, n)
		if !ok {
			continue
		}
		out = append(out, AliasOp{
			TableOp: TableOp{Node: n, Span: n, Key: key, Op: pymodel.ReadIndex, KeyNode: facts.SubscriptKey(t, n)},
			Use:     tu, Local: t.Text(v), Table: facts.Path(tu.Self + "." + tu.Use.Path),
		})
	}
	return out
}

// GuardedAlias is Guarded under either name of the table.
func GuardedAlias(r *facts.Result, op AliasOp) bool {
	return Guarded(r, op.Node, facts.Path(op.Local), op.Key) || Guarded(r, op.Node, op.Table, op.Key)
}
