package memkind

import (
	"fmt"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/reaching"
	"github.com/sglint/sglint/analyzer/syntax"
)

// origin says why a value may be None: a clause for the message and the
// places to show.
type origin struct {
	why     string
	related []analyzer.Related
}

// maxDepth bounds how far values are followed through locals, arms and
// operands.
const maxDepth = 8

// visit guards the local bindings followed in one query against cycles
// (`x = x or y` in a loop).
type visit map[int32]bool

// mayNone reports, with its origin, whether expression n of fl may
// evaluate to None where it stands. Unknown values (external calls,
// globals, subscripts) are not None: the rule prefers missing a finding
// to inventing one. An explicit `None` argument (depth 0) is deliberate
// and not reported.
func (c *checker) mayNone(fl *flow, n syntax.NodeID, depth int, seen visit) *origin {
	t := fl.tree
	n = t.Unparen(n)
	if n == syntax.NoNode || depth > maxDepth || t.IsError(n) {
		return nil
	}
	if p, ok := facts.PathOf(t, n); ok && fl.facts.Holds(n, facts.NotNoneFact(p)) {
		return nil // checked (or known) on every path
	}
	switch t.Kind(n) {
	case syntax.None:
		if depth == 0 {
			return nil
		}
		return &origin{
			why:     fmt.Sprintf("None on line %d", t.Start(n).Line),
			related: []analyzer.Related{c.relatedNode(fl, n, "None here")},
		}
	case syntax.ConditionalExpression:
		// The arms are named children 0 and 2, the condition 1.
		for _, arm := range []syntax.NodeID{t.NamedChild(n, 0), t.NamedChild(n, 2)} {
			if t.Kind(t.Unparen(arm)) == syntax.None {
				return &origin{
					why:     condWhy(t, n),
					related: []analyzer.Related{c.relatedNode(fl, arm, "the None arm")},
				}
			}
			if o := c.mayNone(fl, arm, depth+1, seen); o != nil {
				return o
			}
		}
	case syntax.BooleanOperator:
		// `a or b` is b when a is falsy; `a and b` is a when a is falsy.
		left, right := t.Field(n, syntax.FLeft), t.Field(n, syntax.FRight)
		if op := t.Field(n, syntax.FOperator); op != syntax.NoNode && t.Kind(op) == syntax.KwAnd {
			if o := c.mayNone(fl, left, depth+1, seen); o != nil {
				return o
			}
		}
		return c.mayNone(fl, right, depth+1, seen)
	case syntax.Await:
		return c.mayNone(fl, t.NamedChild(n, 0), depth, seen)
	case syntax.Call:
		return c.callMayNone(fl, n)
	case syntax.Identifier:
		return c.localMayNone(fl, n, depth, seen)
	case syntax.Attribute:
		return c.attrMayNone(fl, n)
	}
	return nil
}

// localMayNone: a local name may be None when a binding that may be None
// reaches it on some path not cut by a check.
func (c *checker) localMayNone(fl *flow, n syntax.NodeID, depth int, seen visit) *origin {
	t := fl.tree
	name := t.Text(n)
	for _, d := range fl.defs.Reaching(n, name) {
		if o := c.defMayNone(fl, d, depth, seen); o != nil {
			return o
		}
	}
	return nil
}

// nameMayBeNone is localMayNone for a parameter use inside a callee, with
// the parameter itself taken as possibly None (the caller's value is).
func (c *checker) nameMayBeNone(fl *flow, n syntax.NodeID, name string, paramNone bool) bool {
	for _, d := range fl.defs.Reaching(n, name) {
		def := fl.defs.Def(d)
		if def.Kind == reaching.Param && def.Name == name && paramNone {
			return true
		}
		if c.defMayNone(fl, d, 1, nil) != nil {
			return true
		}
	}
	return false
}

func (c *checker) defMayNone(fl *flow, d int32, depth int, seen visit) *origin {
	t := fl.tree
	def := fl.defs.Def(d)
	switch def.Kind {
	case reaching.Param:
		return c.paramMayNone(fl, def)
	case reaching.Assign:
	default:
		return nil // loops, unpacking, imports...: unknown, not None
	}
	if def.Value == syntax.NoNode {
		return nil
	}
	if seen == nil {
		seen = visit{}
	}
	if seen[d] {
		return nil
	}
	seen[d] = true
	line := t.Start(def.Target).Line
	v := t.Unparen(def.Value)
	if t.Kind(v) == syntax.None {
		return &origin{
			why:     fmt.Sprintf("set to None on line %d and not reassigned on every path", line),
			related: []analyzer.Related{c.relatedNode(fl, def.Target, fmt.Sprintf("`%s` set to None", def.Name))},
		}
	}
	inner := c.mayNone(fl, v, depth+1, seen)
	if inner == nil {
		return nil
	}
	why := fmt.Sprintf("assigned `%s` on line %d: %s", clip(t.Text(v), 50), line, inner.why)
	if t.Kind(v) == syntax.ConditionalExpression && inner.why == condWhy(t, v) {
		why = fmt.Sprintf("assigned `%s` on line %d, which has a None arm", clip(t.Text(v), 50), line)
	}
	return &origin{
		why: why,
		related: append([]analyzer.Related{c.relatedNode(fl, def.Target, fmt.Sprintf("`%s` assigned here", def.Name))},
			inner.related...),
	}
}

// paramMayNone: a parameter that defaults to None or is annotated as
// admitting it.
func (c *checker) paramMayNone(fl *flow, def *reaching.Def) *origin {
	f := c.ix.Func(fl.fn)
	for i := range f.Params {
		p := &f.Params[i]
		if p.Name != def.Name || !p.Optional {
			continue
		}
		why := fmt.Sprintf("parameter `%s` defaults to None", p.Name)
		if !(p.HasDefault && p.DefaultKind == pymodel.ValueNone) {
			why = fmt.Sprintf("parameter `%s` is annotated `%s`", p.Name, p.Annotation)
		}
		return &origin{why: why, related: []analyzer.Related{c.related(fl.fn.File, p.At, "may be None")}}
	}
	return nil
}

// callMayNone: the result of a project function that may return None, or
// of `.get(key)` / `.get(key, None)` on something that is not a project
// class.
func (c *checker) callMayNone(fl *flow, n syntax.NodeID) *origin {
	t := fl.tree
	site, ok := c.ix.CallAt(fl.fn.File, n)
	if !ok {
		return nil
	}
	if o, ok := c.getattrMayNone(fl, site, n); ok {
		return o
	}
	if cal, known := c.staticCallee(site); known {
		f := c.ix.Func(cal.Func)
		var why string
		switch {
		case f.ReturnsOptional:
			why = fmt.Sprintf("`%s` returns `%s`", f.Name, f.Returns)
		case c.ix.FuncSummary(cal.Func).MayReturnNone:
			why = fmt.Sprintf("`%s` may return None", f.Name)
		default:
			return nil
		}
		return &origin{why: why, related: []analyzer.Related{c.related(cal.Func.File, f.NameAt, why)}}
	}
	for _, cal := range c.ix.Callees(site) {
		if cal.Func.Valid() {
			return nil // an override: which one runs is unknown
		}
	}
	call := c.ix.Call(site)
	if call.Kind != pymodel.RefAttr || call.Name != "get" {
		return nil
	}
	args := c.ix.Args(site)
	if len(args) == 0 || len(args) > 2 {
		return nil
	}
	for _, a := range args {
		if a.Keyword != "" || a.Star != 0 {
			return nil
		}
	}
	if len(args) == 2 && t.Kind(t.Unparen(args[1].At.Node)) != syntax.None {
		return nil
	}
	return &origin{
		why:     fmt.Sprintf("`%s.get(...)` returns None for a missing key", call.Recv),
		related: []analyzer.Related{c.relatedNode(fl, n, "may return None")},
	}
}

func condWhy(t *syntax.Tree, n syntax.NodeID) string {
	return fmt.Sprintf("the conditional expression on line %d has a None arm", t.Start(n).Line)
}

// getattrMayNone: `getattr(obj, "name", None)` is None when obj has no
// such attribute, and `getattr(obj, "name")` is the attribute; ok is false
// for any other call.
func (c *checker) getattrMayNone(fl *flow, site pymodel.CallSite, n syntax.NodeID) (*origin, bool) {
	t := fl.tree
	call := c.ix.Call(site)
	if call.Kind != pymodel.RefName || call.Name != "getattr" {
		return nil, false
	}
	args := c.ix.Args(site)
	if len(args) < 2 || len(args) > 3 {
		return nil, false
	}
	for _, a := range args {
		if a.Keyword != "" || a.Star != 0 {
			return nil, false
		}
	}
	if len(args) == 3 {
		if t.Kind(t.Unparen(args[2].At.Node)) != syntax.None {
			return nil, true // another default: whatever it is
		}
		return &origin{
			why:     "getattr with a None default returns None when the attribute is missing",
			related: []analyzer.Related{c.relatedNode(fl, n, "may return None")},
		}, true
	}
	name := t.Unparen(args[1].At.Node)
	if t.Kind(name) != syntax.String {
		return nil, true
	}
	s := strings.Trim(t.Text(name), `"'`)
	if s == "" || strings.ContainsAny(s, " .[{") {
		return nil, true
	}
	return c.attrOfMayNone(fl, args[0].At.Node, s), true
}
