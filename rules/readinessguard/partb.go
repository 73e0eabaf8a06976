package readinessguard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/sendpath"
)

// Part (b): the state is checked only by raising deep in the path, and an
// outermost entry calls into that path with no check of its own and no
// handler that fails just the request.
//
// It is two small steps so that it can move to the records rule (SGL010,
// issue 9) unchanged in substance: emptyStateRaises finds the raise sites
// (there, a record's message pattern finds them instead) and
// sendpath.Escapes decides which entries let them escape. Findings are
// computed once per project and each file's pass reports its own.

// emptyRaise is a raise that fires when registration state is empty.
type emptyRaise struct {
	site  sendpath.RaiseSite
	state facts.Path // the state, in the raising function's names
}

// partB returns the part (b) findings of the whole project, computed by
// the first pass that asks.
func (ck *checker) partB() []analyzer.Diagnostic {
	ck.partBOnce.Do(func() { ck.partBDiags = ck.computePartB() })
	return ck.partBDiags
}

func (ck *checker) computePartB() []analyzer.Diagnostic {
	paths := ck.paths
	ix := paths.Index()
	var out []analyzer.Diagnostic
	seen := map[pymodel.CallSite]bool{}
	for _, er := range ck.emptyStateRaises() {
		for _, e := range paths.Escapes(er.site) {
			if e.CallerHandles || seen[e.Call] {
				continue
			}
			seen[e.Call] = true
			f := paths.File(e.Call.File)
			if f == nil {
				continue
			}
			n := ix.Call(e.Call).At.Node
			d := analyzer.Diagnostic{
				Path:     f.Path,
				Start:    f.Tree().Start(n),
				End:      f.Tree().End(n),
				Message:  ck.escapeMessage(er, e),
				Function: syntax.QualName(f.Tree(), n),
				Related:  ck.escapeRelated(er, e),
			}
			d.SetSeverity(analyzer.Warning) // part (a) is the error
			out = append(out, d)
		}
	}
	return out
}

// emptyStateRaises lists the raises (and asserts) on send paths that fire
// when a registration state of the function's class is empty or None, in
// send-path order.
func (ck *checker) emptyStateRaises() []emptyRaise {
	// Each function apart, on all CPUs: the rules' other workers wait on
	// this shared result.
	fns := ck.paths.Funcs()
	per := make([][]emptyRaise, len(fns))
	pymodel.ForEach(len(fns), func(i int) { per[i] = ck.emptyStateRaisesIn(fns[i]) })
	return slices.Concat(per...)
}

func (ck *checker) emptyStateRaisesIn(fn pymodel.FuncRef) []emptyRaise {
	ix := ck.ix
	var out []emptyRaise
	r := ck.paths.Facts(fn)
	c, ok := ck.classOf(fn)
	f := ck.paths.File(fn.File)
	if r == nil || !ok || f == nil {
		return nil
	}
	self := sendpath.SelfName(ix, fn)
	if self == "" {
		return nil
	}
	// Most functions on send paths raise nothing and assert nothing: they
	// need no candidate states, whose types take most of this rule's time.
	s := ix.Summary(fn.File)
	var raises []int
	for _, ri := range raisesIn(s, fn.Func) {
		if rs := &s.Raises[ri]; rs.Type != "" && r.Reachable(rs.At.Node) {
			raises = append(raises, ri)
		}
	}
	asserts := assertsIn(f.Tree(), ix.Func(fn).Def, r)
	if len(raises) == 0 && len(asserts) == 0 {
		return nil
	}
	// The states the class uses: its own, and those of objects it
	// holds in typed attributes (`self.kv_mgr.kv_mem_descs`).
	lookup := ck.lookup(fn, c, self)
	var cands []stateCand
	for _, p := range ix.SelfPaths(c) {
		sp := facts.Path(self + "." + p)
		// A raise when a list of the KV args is empty is SGL006's (an
		// error escaping an entry), not a readiness check.
		if st, owner, ok := lookup(sp); ok && st.Kind != fromArgs {
			cands = append(cands, stateCand{sp, owner})
		}
	}
	if len(cands) == 0 {
		return nil
	}
	for _, ri := range raises {
		rs := &s.Raises[ri]
		n := rs.At.Node
		for _, sc := range cands {
			if ex, ok := ck.raisesWhenEmpty(r, n, sc.path, sc.owner); ok {
				out = append(out, emptyRaise{
					site:  sendpath.RaiseSite{Func: fn, Node: n, Exc: rs.Type, Message: rs.Message, Excluded: ex},
					state: sc.path,
				})
				break
			}
		}
	}
	out = append(out, ck.emptyStateAsserts(f.Tree(), fn, r, asserts, cands)...)
	return out
}

// assertsIn lists the reachable assert statements of the function
// defined at def, its nested functions apart.
func assertsIn(t *syntax.Tree, def syntax.NodeID, r *facts.Result) []syntax.NodeID {
	var out []syntax.NodeID
	for n := range t.OwnScope(def) {
		if t.Kind(n) == syntax.AssertStatement && r.Reachable(n) {
			out = append(out, n)
		}
	}
	return out
}

func raisesIn(s *pymodel.Summary, fn int32) []int {
	var out []int
	for i := range s.Raises {
		if s.Raises[i].Func == fn {
			out = append(out, i)
		}
	}
	return out
}

// stateCand is a registration state a function may check: its path, and
// the path of the object holding it.
type stateCand struct {
	path, owner facts.Path
}

// raisesWhenEmpty: at n the state (or a member of its group) is known
// empty or None. It returns the facts that rule the raise out.
func (ck *checker) raisesWhenEmpty(r *facts.Result, n syntax.NodeID, sp, owner facts.Path) ([]facts.Fact, bool) {
	members := append([]facts.Path{sp}, ck.opts.group(sp, string(owner))...)
	hit := false
	for _, m := range members {
		if r.Holds(n, facts.Fact{Kind: facts.Falsy, Path: m}) || r.Holds(n, facts.Fact{Kind: facts.IsNone, Path: m}) {
			hit = true
			break
		}
	}
	if !hit {
		return nil, false
	}
	var ex []facts.Fact
	for _, m := range members {
		ex = append(ex, facts.NonEmptyFact(m))
	}
	return ex, true
}

// emptyStateAsserts: `assert self.descs`, `assert len(descs) > 0`,
// `assert self.plan is not None` (directly or through an alias).
func (ck *checker) emptyStateAsserts(t *syntax.Tree, fn pymodel.FuncRef, r *facts.Result, asserts []syntax.NodeID, cands []stateCand) []emptyRaise {
	var out []emptyRaise
	for _, n := range asserts {
		cond := t.NamedChild(n, 0)
		p, ok := assertedNonEmpty(t, cond)
		if !ok {
			continue
		}
		states := func(p facts.Path) (state, facts.Path, bool) {
			for _, sc := range cands {
				if sc.path == p {
					return state{}, sc.owner, true
				}
			}
			return state{}, "", false
		}
		sp, _, owner, ok := stateBehind(p, n, r, states)
		if !ok {
			continue
		}
		msg := ""
		if m := t.NamedChild(n, 1); m != syntax.NoNode && t.Kind(m) == syntax.String {
			msg = strings.Trim(t.Text(m), `"'`)
		}
		var ex []facts.Fact
		for _, m := range append([]facts.Path{sp}, ck.opts.group(sp, string(owner))...) {
			ex = append(ex, facts.NonEmptyFact(m))
		}
		out = append(out, emptyRaise{
			site:  sendpath.RaiseSite{Func: fn, Node: n, Exc: "AssertionError", Message: msg, Excluded: ex},
			state: sp,
		})
	}
	return out
}

// assertedNonEmpty: the path an assert condition requires to be non-empty
// (or not None): `x`, `len(x)`, `len(x) > 0`, `len(x) != 0`, `x is not None`.
func assertedNonEmpty(t *syntax.Tree, cond syntax.NodeID) (facts.Path, bool) {
	cond = t.Unparen(cond)
	if cond == syntax.NoNode {
		return "", false
	}
	lenArg := func(n syntax.NodeID) syntax.NodeID {
		n = t.Unparen(n)
		if t.Kind(n) != syntax.Call || !t.TextIs(t.Field(n, syntax.FFunction), "len") {
			return syntax.NoNode
		}
		return t.NamedChild(t.Field(n, syntax.FArguments), 0)
	}
	switch t.Kind(cond) {
	case syntax.Identifier, syntax.Attribute, syntax.Subscript:
		return facts.PathOf(t, cond)
	case syntax.Call:
		if a := lenArg(cond); a != syntax.NoNode {
			return facts.PathOf(t, a)
		}
	case syntax.ComparisonOperator:
		l, r := t.NamedChild(cond, 0), t.NamedChild(cond, 2)
		var op syntax.Kind
		for o := range t.FieldAll(cond, syntax.FOperators) {
			op = t.Kind(o)
		}
		switch {
		case op == syntax.OpIsNot && t.Kind(r) == syntax.None:
			return facts.PathOf(t, l)
		case (op == syntax.OpGt || op == syntax.OpNe) && t.TextIs(r, "0"):
			if a := lenArg(l); a != syntax.NoNode {
				return facts.PathOf(t, a)
			}
		case op == syntax.OpGe && t.TextIs(r, "1"):
			if a := lenArg(l); a != syntax.NoNode {
				return facts.PathOf(t, a)
			}
		}
	}
	return "", false
}

func (ck *checker) escapeMessage(er emptyRaise, e sendpath.Escape) string {
	ix := ck.ix
	entry := ix.Func(e.Entry.Func).Name
	g := ix.Func(er.site.Func).Name
	raise := er.site.Exc
	if er.site.Message != "" {
		raise = fmt.Sprintf("%s(%q)", er.site.Exc, er.site.Message)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` calls into a send path where `%s` raises %s when `%s` is empty (no KV buffers registered on this rank); ",
		entry, g, raise, er.state)
	b.WriteString("nothing checks it before this call or catches the error for just this request, so ")
	switch e.Entry.Kind {
	case sendpath.Thread:
		fmt.Fprintf(&b, "the %s ends the transfer thread `%s` and every request it serves", er.site.Exc, entry)
	case sendpath.Executor:
		b.WriteString(sendpath.UnreadFuture(entry, "the "+er.site.Exc))
	default:
		fmt.Fprintf(&b, "the %s leaves `%s` for its caller (the scheduler) instead of failing one request", er.site.Exc, entry)
	}
	fmt.Fprintf(&b, " (record %s). ", RecordID)
	if c, ok := ck.classOf(er.site.Func); ok {
		if attr, ok := selfAttr(er.state, sendpath.SelfName(ix, er.site.Func)); ok {
			if st, ok := ck.state(c, attr); ok {
				b.WriteString(refuseToStart(ck.funcOfUse(st.Fill), attr, st.Kind == noneYet))
				b.WriteString(", or fail only this request in an `except` here")
				return b.String()
			}
		}
	}
	b.WriteString("Refuse to start when nothing is registered, or fail only this request in an `except` here")
	return b.String()
}

// escapeRelated walks the chain from the entry's call to the raise.
func (ck *checker) escapeRelated(er emptyRaise, e sendpath.Escape) []analyzer.Related {
	ix := ck.ix
	var out []analyzer.Related
	for i, st := range e.Chain {
		if i < 2 { // the entry and its own call (the finding itself)
			continue
		}
		f := ck.paths.File(st.Site.File)
		if f == nil {
			continue
		}
		at := ix.Call(st.Site).At
		out = append(out, analyzer.Related{Path: f.Path, Line: int(at.Line), Column: int(at.Col),
			Message: ck.paths.StepMessage(st)})
	}
	if f := ck.paths.File(er.site.Func.File); f != nil {
		pos := f.Tree().Start(er.site.Node)
		out = append(out, analyzer.Related{Path: f.Path, Line: pos.Line, Column: pos.Column,
			Message: fmt.Sprintf("raises %s here when `%s` is empty", er.site.Exc, er.state)})
	}
	return out
}
