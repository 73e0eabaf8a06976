package kvfail

import (
	"fmt"
	"strings"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/peertable"
	"github.com/sglint/sglint/rules/sendpath"
)

// sourcesIn lists the sources of one function on a KV path, in source
// order: what its own body can fail with (what its callees fail with is
// theirs, and reaches it through sendpath.Escapes).
func sourcesIn(paths *sendpath.Paths, ta *taint, fn pymodel.FuncRef, known knownCalls) []*Source {
	ix := paths.Index()
	f := paths.File(fn.File)
	r := paths.Facts(fn)
	if f == nil || r == nil || ix.Func(fn).Stub {
		return nil
	}
	s := ix.Summary(fn.File)
	def := ix.Func(fn).Def
	var t *syntax.Tree // read only when the function has a candidate
	tree := func() *syntax.Tree {
		if t == nil {
			t = f.Tree()
		}
		return t
	}
	var cls *classifier
	classify := func() *classifier {
		if cls == nil {
			cls = newClassifier(paths, ta, fn, tree(), nil)
		}
		return cls
	}
	var out []*Source
	add := func(src *Source) {
		src.Line = tree().Start(src.Node).Line
		src.site.Func, src.site.Node, src.site.Exc, src.site.Direct = fn, src.Node, src.Exc, true
		out = append(out, src)
	}

	// Explicit raises: the summary lists them, bare re-raises apart (what
	// they pass on is the try body's failure, a source of its own).
	for i := range s.Raises {
		rs := &s.Raises[i]
		if rs.Func != fn.Func || rs.Type == "" || !r.Reachable(rs.At.Node) || !classLike(rs.Type) {
			continue
		}
		if rs.HandlerTry >= 0 && rs.Type == s.Tries[rs.HandlerTry].Handlers[rs.Handler].Name {
			continue // `raise e` of the caught exception
		}
		t := tree()
		if ExhaustiveElse(ix, fn, t, rs.At.Node) {
			continue // no value reaches it
		}
		add(&Source{Kind: Raise, Func: fn, Node: rs.At.Node, Exc: pyname.Last(rs.Type),
			Text: oneLine(t, rs.At.Node), PerRequest: classify().raiseDepends(rs.At.Node)})
	}

	// Asserts, and table lookups, pops and deletions.
	t = tree()
	for n := range t.OwnScope(def) {
		if t.Kind(n) != syntax.AssertStatement || !r.Reachable(n) {
			continue
		}
		test := t.NamedChild(n, 0)
		src := &Source{Kind: Assert, Func: fn, Node: n, Exc: "AssertionError",
			Text: oneLine(t, n), PerRequest: classify().assertDepends(test)}
		src.site.Raising = facts.TestFacts(t, test, false)
		add(src)
	}
	for _, src := range tableSources(paths, fn, t, r) {
		src.PerRequest = classify().keyDepends(src)
		add(src)
	}

	// Calls the project shows raising.
	if len(known) > 0 {
		for _, site := range ix.CallsIn(fn) {
			c := ix.Call(site)
			if len(ix.Callees(site)) > 0 || !r.Reachable(c.At.Node) {
				continue
			}
			if key, ok := apiKey(ix, fn, c); ok && known[key] {
				add(&Source{Kind: Call, Func: fn, Node: c.At.Node, Exc: "Exception",
					Text: oneLine(tree(), c.At.Node), PerRequest: classify().callDepends(c.At.Node)})
			}
		}
	}
	return out
}

// classLike reports a raised expression that names a class (`E`,
// `mod.E`), not a variable holding an exception (`raise err`).
func classLike(typ string) bool {
	last := pyname.Last(typ)
	return last != "" && last[0] >= 'A' && last[0] <= 'Z'
}

// tableSources are the peer-table reads, pops and deletions of fn whose
// key is not known to be in the table where they run.
func tableSources(paths *sendpath.Paths, fn pymodel.FuncRef, t *syntax.Tree, r *facts.Result) []*Source {
	var out []*Source
	for tu := range peertable.New(paths.Index()).FuncUses(fn) {
		op, ok := TableOpAt(t, tu.Use)
		if !ok {
			continue
		}
		table := facts.Path(tu.Self + "." + tu.Use.Path)
		if op.Computed && !Unchecked(t, paths.Index().Func(fn).Def, table) || !op.Computed && Guarded(r, op.Node, table, op.Key) {
			continue
		}
		kind := Lookup
		switch op.Op {
		case pymodel.MutPop:
			kind = Pop
		case pymodel.MutDelItem:
			kind = Delete
		}
		src := &Source{Kind: kind, Func: fn, Node: op.Node, Exc: "KeyError", Text: oneLine(t, op.Node), Table: table, Key: op.Key, keyNode: op.KeyNode}
		if !op.Computed {
			src.site.Excluded = []facts.Fact{facts.InFact(table, op.Key)}
		}
		out = append(out, src)
	}
	for _, op := range AliasOps(peertable.New(paths.Index()), fn, t, paths.Index().Func(fn).Def) {
		if GuardedAlias(r, op) {
			continue
		}
		src := &Source{Kind: Lookup, Func: fn, Node: op.Node, Exc: "KeyError", Text: oneLine(t, op.Node), Table: op.Table, Key: op.Key, keyNode: op.KeyNode}
		src.site.Excluded = []facts.Fact{facts.InFact(op.Table, op.Key), facts.InFact(facts.Path(op.Local), op.Key)}
		out = append(out, src)
	}
	return out
}

// TableOp is a read or removal of one key of a table that raises
// KeyError when the key is missing.
type TableOp struct {
	Node syntax.NodeID // the subscript, the pop call, the del statement
	Span syntax.NodeID // what a finding underlines (the subscript of a del)
	Key  facts.Path
	Op   pymodel.UseOp // ReadIndex, MutPop or MutDelItem
	// KeyNode is the key expression. Computed: it is not an access path
	// (`t[int(rank)]`), so no fact can be known about it; Key is then its
	// text, and only the absence of any check of the table in the
	// function makes the lookup unguarded (Unchecked).
	KeyNode  syntax.NodeID
	Computed bool
}

// TableOpAt finds the table operation of use u: `t[k]` read, `t.pop(k)`
// without a default, `del t[k]`; false for other uses, slices, keys that
// are not access paths and pops with a default (which never raise).
func TableOpAt(t *syntax.Tree, u *pymodel.AttrUse) (TableOp, bool) {
	switch {
	case u.Kind == pymodel.Read && u.Op == pymodel.ReadIndex:
		sub := t.Parent(u.At.Node)
		op := TableOp{Node: sub, Span: sub, Op: u.Op, KeyNode: facts.SubscriptKey(t, sub)}
		key, ok := KeyOf(t, sub)
		if !ok && op.KeyNode != syntax.NoNode && computedKey(t, op.KeyNode) {
			key, ok, op.Computed = facts.Path(oneLine(t, op.KeyNode)), true, true
		}
		op.Key = key
		return op, ok
	case u.Kind == pymodel.Mutate && u.Op == pymodel.MutDelItem:
		sub := t.Parent(u.At.Node)
		key, ok := KeyOf(t, sub)
		del := t.Ancestor(sub, syntax.DeleteStatement)
		return TableOp{Node: del, Span: sub, Key: key, Op: u.Op}, ok && del != syntax.NoNode
	case u.Kind == pymodel.Mutate && u.Op == pymodel.MutPop:
		call := t.Parent(u.At.Node) // At is `self.t.pop`
		if call == syntax.NoNode || t.Kind(call) != syntax.Call || argCount(t, call) != 1 {
			return TableOp{}, false
		}
		key, ok := facts.PathOf(t, t.NamedChild(t.Field(call, syntax.FArguments), 0))
		return TableOp{Node: call, Span: call, Key: key, Op: u.Op}, ok
	}
	return TableOp{}, false
}

// KeyOf returns the key path of a single-key subscript (`t[req.peer]`,
// `t['x']`), false for slices, tuples and computed keys.
func KeyOf(t *syntax.Tree, sub syntax.NodeID) (facts.Path, bool) {
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

// Guarded reports a membership or non-None fact for the key that holds
// on every path to n.
func Guarded(r *facts.Result, n syntax.NodeID, table, key facts.Path) bool {
	if r.Holds(n, facts.InFact(table, key)) {
		return true
	}
	entry := table + "[" + key + "]"
	return r.Holds(n, facts.NotNoneFact(entry)) || r.Holds(n, facts.NonEmptyFact(entry))
}

// oneLine is a node's text on one line, shortened for a message.
func oneLine(t *syntax.Tree, n syntax.NodeID) string {
	s := strings.Join(strings.Fields(t.Text(n)), " ")
	s = strings.ReplaceAll(s, "( ", "(")
	s = strings.ReplaceAll(s, " )", ")")
	if len(s) > 72 {
		cut := 69
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// describe is a source for a list in a message: "line 12: `raise ...`".
func (s *Source) describe() string { return fmt.Sprintf("line %d: `%s`", s.Line, s.Text) }

// computedKey reports a key built by a call or an operation on names
// (`int(rank)`, `f"{a}_{b}"`, `base + i`): not an access path, not a
// literal.
func computedKey(t *syntax.Tree, n syntax.NodeID) bool {
	switch t.Kind(t.Unparen(n)) {
	case syntax.Call, syntax.BinaryOperator, syntax.String, syntax.ConcatenatedString:
		end := t.SubtreeEnd(n)
		for m := n; m < end; m++ {
			if t.Kind(m) == syntax.Identifier {
				return true
			}
		}
	}
	return false
}

// Unchecked reports that the function defined at def never tests or
// looks up table (the path, as written there) other than by subscript:
// no `in`, `.get`, `.setdefault`, `.pop`, `.keys()`, no handler of
// KeyError. For a computed key that no fact can follow, that is what
// "unguarded" can mean without guessing.
func Unchecked(t *syntax.Tree, def syntax.NodeID, table facts.Path) bool {
	for n := range t.OwnScope(def) {
		switch t.Kind(n) {
		case syntax.ComparisonOperator:
			if strings.Contains(t.Text(n), " in ") && strings.Contains(t.Text(n), string(table)) {
				return false
			}
		case syntax.Attribute:
			if p, ok := facts.PathOf(t, t.Field(n, syntax.FObject)); ok && p == table {
				switch t.Text(t.Field(n, syntax.FAttribute)) {
				case "get", "setdefault", "pop", "keys", "items":
					return false
				}
			}
		case syntax.ExceptClause:
			if strings.Contains(t.Text(n), "KeyError") || strings.Contains(t.Text(n), "LookupError") {
				return false
			}
		}
	}
	return true
}

func argCount(t *syntax.Tree, call syntax.NodeID) int {
	n := 0
	for range t.NamedChildren(t.Field(call, syntax.FArguments)) {
		n++
	}
	return n
}
