package memkind

import (
	"fmt"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
)

// checkCall reports the memory-kind arguments of one call that may be None.
func (c *checker) checkCall(site pymodel.CallSite) {
	ix := c.ix
	call := ix.Call(site)
	args := ix.Args(site)
	cal, known := c.staticCallee(site)
	var bind []int
	if known {
		bind = ix.BindArgs(site, cal)
	}
	for i, a := range args {
		if a.Star != 0 || a.Lambda >= 0 {
			continue
		}
		name, pi := a.Keyword, -1
		if known && bind[i] >= 0 {
			p := &ix.Func(cal.Func).Params[bind[i]]
			switch p.Kind {
			case pymodel.VarArgs:
				continue // which parameter it stands for is unknown
			case pymodel.VarKw:
				// name stays the keyword; the callee's use is unknown
			default:
				name, pi = p.Name, bind[i]
			}
		}
		if name == "" || !c.sinks.Match(name) {
			continue
		}
		fl := c.flowOf(pymodel.FuncRef{File: site.File, Func: call.Func})
		if fl == nil {
			return
		}
		o := c.mayNone(fl, a.At.Node, 0, nil)
		if o == nil {
			continue
		}
		if pi >= 0 && c.calleeChecks(cal.Func, pi, 0) {
			continue
		}
		if c.checkedByCallers(fl, a.At.Node) {
			continue
		}
		c.report(fl, a.At.Node, call, cal, known, pi, name, o)
	}
}

func (c *checker) report(fl *flow, v syntax.NodeID, call *pymodel.Call, cal pymodel.Callee, known bool, pi int, param string, o *origin) {
	t := fl.tree
	at := v
	if p := t.Parent(v); p != syntax.NoNode && t.Kind(p) == syntax.KeywordArgument {
		at = p // the finding starts at `dst_mem_kind=`
	}
	callee := call.Name
	if known {
		callee = c.ix.Func(cal.Func).Name
	}
	if callee == "" {
		callee = "the callee"
	} else {
		callee = "`" + callee + "`"
	}
	msg := fmt.Sprintf("`%s` may be None here (%s) and is passed as `%s` to %s; check `is None` first "+
		"and fail the request with a clear error (record %s)",
		clip(t.Text(t.Unparen(v)), 60), o.why, param, callee, record)
	related := append([]analyzer.Related(nil), o.related...)
	if known && pi >= 0 {
		p := &c.ix.Func(cal.Func).Params[pi]
		related = append(related, c.related(cal.Func.File, p.At,
			fmt.Sprintf("`%s` of %s uses the value without checking for None", param, callee)))
	}
	c.pass.ReportNode(at, msg, related...)
}

type paramRef struct {
	fn    pymodel.FuncRef
	param int
}

type checkState uint8

const (
	unknown checkState = iota
	inProgress
	checks
	noCheck
)

// maxForward bounds how far a parameter forwarded to another callee that
// checks it is followed.
const maxForward = 4

// calleeChecks reports whether fn refuses None in parameter pi before
// every use: each read of the parameter is a None test or truth test, or
// happens where the parameter is known not None, or hands it on to another
// project callee that checks it. The real DCP send does this, which makes
// its callers' sends safe.
func (c *checker) calleeChecks(fn pymodel.FuncRef, pi int, depth int) bool {
	key := paramRef{fn, pi}
	switch c.checked[key] {
	case checks:
		return true
	case noCheck, inProgress:
		return false
	}
	c.checked[key] = inProgress
	ok := c.computeCalleeChecks(fn, pi, depth)
	if ok {
		c.checked[key] = checks
	} else {
		c.checked[key] = noCheck
	}
	return ok
}

func (c *checker) computeCalleeChecks(fn pymodel.FuncRef, pi int, depth int) bool {
	f := c.ix.Func(fn)
	if f.Stub || f.Abstract || f.Kind == pymodel.Lambda || pi < 0 || pi >= len(f.Params) {
		return false
	}
	p := &f.Params[pi]
	if p.Kind == pymodel.VarArgs || p.Kind == pymodel.VarKw {
		return false
	}
	fl := c.flowOf(fn)
	if fl == nil {
		return false
	}
	t := fl.tree
	body := t.Field(f.Def, syntax.FBody)
	if body == syntax.NoNode {
		return false
	}
	end := t.SubtreeEnd(body)
	for i := body; i < end; i++ {
		switch t.Kind(i) {
		case syntax.Lambda, syntax.FunctionDefinition, syntax.ClassDefinition:
			// A closure may run later, outside any check: a use there is
			// unchecked.
			if usesName(t, i, p.Name) {
				return false
			}
			i = t.SubtreeEnd(i) - 1
			continue
		case syntax.Identifier:
		default:
			continue
		}
		if !t.TextIs(i, p.Name) || !t.IsLoad(i) || isTest(t, i) {
			continue
		}
		if fl.facts.Holds(i, facts.NotNoneFact(facts.Path(p.Name))) || !c.nameMayBeNone(fl, i, p.Name, true) {
			continue
		}
		if depth < maxForward && c.forwardedToChecker(fl, i, depth) {
			continue
		}
		return false
	}
	return true
}

// forwardedToChecker: identifier use u is an argument of a project call
// whose callee checks the parameter it binds.
func (c *checker) forwardedToChecker(fl *flow, u syntax.NodeID, depth int) bool {
	t := fl.tree
	arg := u
	if p := t.Parent(arg); p != syntax.NoNode && t.Kind(p) == syntax.KeywordArgument {
		arg = p
	}
	list := t.Parent(arg)
	if list == syntax.NoNode || t.Kind(list) != syntax.ArgumentList {
		return false
	}
	callNode := t.Parent(list)
	site, ok := c.ix.CallAt(fl.fn.File, callNode)
	if !ok {
		return false
	}
	cal, known := c.staticCallee(site)
	if !known {
		return false
	}
	bind := c.ix.BindArgs(site, cal)
	for i, a := range c.ix.Args(site) {
		if a.At.Node == u && bind[i] >= 0 {
			return c.calleeChecks(cal.Func, bind[i], depth+1)
		}
	}
	return false
}

// usesName reports whether the subtree at n mentions identifier name.
func usesName(t *syntax.Tree, n syntax.NodeID, name string) bool {
	end := t.SubtreeEnd(n)
	for i := n; i < end; i++ {
		if t.Kind(i) == syntax.Identifier && t.TextIs(i, name) && t.IsLoad(i) {
			return true
		}
	}
	return false
}

// isTest: identifier n is only tested, so None there does no harm: a None
// comparison, a truth test (a condition, an operand of `not`, the left of
// `or`, inside a condition's `and`/`or`), or isinstance's first argument.
func isTest(t *syntax.Tree, n syntax.NodeID) bool {
	cur := n
	for {
		p := t.Parent(cur)
		if p == syntax.NoNode {
			return false
		}
		switch t.Kind(p) {
		case syntax.ParenthesizedExpression:
			cur = p
			continue
		case syntax.ComparisonOperator:
			return cur == n && noneComparison(t, p)
		case syntax.NotOperator:
			return true
		case syntax.BooleanOperator:
			if t.FieldOf(cur) == syntax.FLeft {
				if op := t.Field(p, syntax.FOperator); op != syntax.NoNode && t.Kind(op) == syntax.KwOr {
					return true
				}
			}
			cur = p
			continue
		case syntax.IfStatement, syntax.ElifClause, syntax.WhileStatement:
			return t.FieldOf(cur) == syntax.FCondition
		case syntax.AssertStatement:
			return t.NamedChild(p, 0) == cur
		case syntax.ConditionalExpression:
			return t.NamedChild(p, 1) == cur
		case syntax.ArgumentList:
			callee := t.Field(t.Parent(p), syntax.FFunction)
			return cur == n && t.NamedChild(p, 0) == n && callee != syntax.NoNode && t.TextIs(callee, "isinstance")
		}
		return false
	}
}

// noneComparison: `x is None`, `x is not None`, `x == None`, `x != None`
// (either side).
func noneComparison(t *syntax.Tree, cmp syntax.NodeID) bool {
	operands := 0
	hasNone := false
	for x := range t.NamedChildren(cmp) {
		operands++
		if t.Kind(t.Unparen(x)) == syntax.None {
			hasNone = true
		}
	}
	return operands == 2 && hasNone
}

// clip shortens s for a message.
func clip(s string, n int) string {
	r := []rune(s)
	for i, ch := range r {
		if ch == '\n' {
			r = append(r[:i:i], []rune(" ...")...)
			break
		}
	}
	if len(r) > n {
		return string(r[:n-3]) + "..."
	}
	return string(r)
}

// checkedByCallers: the value at v is not None once the checks every
// caller of v's function made before calling it are taken into account
// (`if info.kind is None: raise` in the worker, the send in a helper it
// calls with info).
func (c *checker) checkedByCallers(fl *flow, v syntax.NodeID) bool {
	alt := c.callerFlow(fl.fn)
	return alt != nil && c.mayNone(alt, v, 0, nil) == nil
}
