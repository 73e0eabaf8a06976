package readinessguard

import (
	"fmt"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
)

// State taken from the KV args. A manager does not fill every buffer list
// it sends from: `self.kv_args.kv_data_ptrs`, `aux_data_ptrs` and
// `state_data_ptrs` come from the memory pools, and a pipeline stage that
// holds no layers of a kind gets an empty list for it. Such a list is
// state of the rule (kind fromArgs) only where the code itself shows it
// can be empty: some method of a KV class tests it for emptiness and
// handles that case (a transfer worker that skips the KV send when
// `self.kv_args.kv_data_ptrs` is empty, a receiver that reports
// `kv_item_lens[0] if kv_item_lens else 0`); a test that only decides
// whether to register the list is not evidence (guardsRegistration). Then
// the uses that fail on an empty list — an index by a constant, an
// unpacking, a division by its length — need the same test on the send
// path. Loops and slices over it are not reported: on a stage without
// such layers they rightly move nothing.

// kvArgsAttr is the attribute under which KV classes hold their KV args.
const kvArgsAttr = "kv_args"

// argsEvidence maps a field of the KV args ("state_data_ptrs") to the
// places the project tests it for emptiness, in file order.
type argsEvidence map[string][]evidenceSite

// evidenceSite is one such test, in function Func.
type evidenceSite struct {
	Func    string
	Related analyzer.Related
}

// near picks the test to show for a use in file path: one in the same file
// (the backend's own twin) when there is one.
func near(sites []evidenceSite, path string) evidenceSite {
	for _, e := range sites {
		if e.Related.Path == path {
			return e
		}
	}
	return sites[0]
}

// evidence is computed once per checker.
func (ck *checker) evidence() argsEvidence {
	ck.evidenceOnce.Do(func() { ck.argsEv = ck.findEvidence() })
	return ck.argsEv
}

func (ck *checker) findEvidence() argsEvidence {
	ix := ck.ix
	ev := argsEvidence{}
	kv := map[pymodel.ClassRef]bool{}
	var files []int32
	for _, c := range ck.paths.Scope().Classes() {
		if len(files) == 0 || files[len(files)-1] != c.File {
			files = append(files, c.File)
		}
		kv[c] = true
	}
	for _, fi := range files {
		f := ck.paths.File(fi)
		if f == nil {
			continue
		}
		t := f.Tree()
		if t == nil {
			continue
		}
		for _, fn := range ix.FuncsOf(fi) {
			self, c := ix.SelfOf(fn)
			if self == "" || !kv[c] {
				continue
			}
			for n := range t.OwnScope(ix.Func(fn).Def) {
				if t.Kind(n) != syntax.Attribute {
					continue
				}
				p, ok := facts.PathOf(t, n)
				if !ok {
					continue
				}
				field, _, ok := argsField(p, self)
				if !ok || !testedEmpty(t, n, p) || ck.guardsRegistration(t, n) {
					continue
				}
				at := t.Start(n)
				ev[field] = append(ev[field], evidenceSite{Func: ix.Func(fn).QualName, Related: analyzer.Related{
					Path: f.Path, Line: at.Line, Column: at.Column,
					Message: fmt.Sprintf("`%s` is tested for emptiness here (%s): it can be empty", p, ix.Func(fn).QualName)}})
			}
		}
	}
	return ev
}

// argsField: p is `<self>.kv_args.<field>` or `<self>.<attrs>.kv_args.<field>`
// (a sender's `self.kv_mgr.kv_args.aux_data_ptrs`); owner is the object
// holding the KV args.
func argsField(p facts.Path, self string) (field string, owner facts.Path, ok bool) {
	parts := strings.Split(string(p), ".")
	n := len(parts)
	if n < 3 || parts[0] != self || parts[n-2] != kvArgsAttr || strings.ContainsRune(string(p), '[') {
		return "", "", false
	}
	return parts[n-1], facts.Path(strings.Join(parts[:n-2], ".")), true
}

// testedEmpty: the expression n (naming path p) is part of a condition
// that tells an empty p from a non-empty one: the test of an if, elif,
// while, conditional expression, comprehension filter or assert, alone or
// under not, and/or, or a length comparison.
func testedEmpty(t *syntax.Tree, n syntax.NodeID, p facts.Path) bool {
	top := t.ParenTop(n)
	for {
		up := t.Parent(top)
		if up == syntax.NoNode {
			return false
		}
		switch t.Kind(up) {
		case syntax.NotOperator, syntax.BooleanOperator, syntax.ComparisonOperator,
			syntax.ArgumentList, syntax.ParenthesizedExpression:
			top = up
			continue
		case syntax.Call:
			if !t.TextIs(t.Field(up, syntax.FFunction), "len") {
				return false
			}
			top = up
			continue
		case syntax.IfStatement, syntax.ElifClause, syntax.WhileStatement:
			if t.FieldOf(top) != syntax.FCondition {
				return false
			}
		case syntax.AssertStatement:
			if t.NamedChild(up, 0) != top {
				return false
			}
		case syntax.ConditionalExpression:
			if t.NamedChild(up, 1) != top {
				return false
			}
		case syntax.IfClause:
		default:
			return false
		}
		for _, v := range []bool{true, false} {
			for _, f := range facts.TestFacts(t, top, v) {
				if f.Path == p && (f.Kind == facts.Truthy || f.Kind == facts.Falsy) {
					return true
				}
			}
		}
		return false
	}
}

// argsState is the fromArgs state path p names in a function whose self
// is named self, when the project shows that field can be empty.
func (ck *checker) argsState(p facts.Path, self, file string) (state, facts.Path, bool) {
	field, owner, ok := argsField(p, self)
	if !ok {
		return state{}, "", false
	}
	// A list parallel to one tested for emptiness (same equivalence group)
	// is as empty as it.
	// The field's own tests are shown first.
	all := ck.evidence()
	sites := all[field]
	if len(sites) == 0 {
		for _, m := range ck.opts.group(facts.Path("self."+kvArgsAttr+"."+field), "self") {
			if f, _, isArgs := argsField(m, "self"); isArgs {
				sites = append(sites, all[f]...)
			}
		}
	}
	if len(sites) == 0 {
		return state{}, "", false
	}
	ev := near(sites, file)
	return state{Attr: kvArgsAttr + "." + field, Kind: fromArgs, Init: noUse, Fill: noUse, Evidence: ev.Related, Handler: ev.Func}, owner, true
}

// raisesWhenEmpty: the uses of fromArgs state that fail on an empty list,
// rather than rightly doing nothing: an index by a constant
// (`ptrs[0]`, `lens[-1]`), an unpacking, a division by its length.
func raisesWhenEmpty(t *syntax.Tree, n syntax.NodeID, k useKind) bool {
	switch k {
	case useUnpack, useDiv:
		return true
	case useIndex:
		return t.ConstantIndex(t.Parent(t.ParenTop(n)))
	}
	return false
}

// argsMessage words a finding on fromArgs state. The advice is the test
// the project already makes elsewhere: a rank that holds none of these
// buffers has nothing of this kind to move, or a fallback value to report.
func argsMessage(name string, u use) string {
	ev := u.State.Evidence
	var what string
	switch u.Kind {
	case useUnpack:
		what = "unpacking it raises ValueError"
	case useDiv:
		what = "dividing by its length raises ZeroDivisionError"
	default:
		what = "indexing it raises IndexError"
	}
	return fmt.Sprintf("%s may be empty here (the KV args of a rank can hold no buffers of this kind: `%s` tests for that at %s:%d); %s on this KV path (record %s). "+
		"Test it before this use (`if not %s: ...`) and handle a rank with none of these buffers, as `%s` does",
		name, u.State.Handler, ev.Path, ev.Line, what, RecordID, u.StatePath, u.State.Handler)
}

// guardsRegistration: the test at n only decides whether to register (or
// deregister) the list (`if ptrs and lens: engine.batch_register(ptrs,
// lens)`). That is caution, not a sign that the list is ever empty: the
// evidence must come from code that handles an empty list.
func (ck *checker) guardsRegistration(t *syntax.Tree, n syntax.NodeID) bool {
	stmt := t.Ancestor(n, syntax.IfStatement, syntax.ElifClause)
	if stmt == syntax.NoNode || !t.Contains(t.Field(stmt, syntax.FCondition), n) {
		return false
	}
	body := t.Field(stmt, syntax.FConsequence)
	if body == syntax.NoNode {
		return false
	}
	for d := body; d < t.SubtreeEnd(body); d++ {
		if t.Kind(d) != syntax.Call {
			continue
		}
		fn := t.Field(d, syntax.FFunction)
		if t.Kind(fn) == syntax.Attribute {
			fn = t.Field(fn, syntax.FAttribute)
		}
		if ck.regs.pats.Match(t.Text(fn)) {
			return true
		}
	}
	return false
}
