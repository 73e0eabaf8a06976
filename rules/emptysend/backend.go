package emptysend

import (
	"fmt"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/reaching"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/sendpath"
)

// Inside a backend, the indices a send entry receives are a parameter:
// whether they can be empty is not written there. The evidence is another
// KV class that tests the same name for emptiness (another backend, or
// the other side): the project says such a list can arrive empty. The
// finding is then a send entry that hands the parameter, unchanged and
// untested, to the transport (a call on something the object holds,
// outside the project: `self.engine.write(room, kv_indices)`), so that an
// empty chunk posts nothing and no completion comes back.

// emptinessTest is where a KV class tests a name for emptiness.
type emptinessTest struct {
	owner pymodel.ClassRef
	fn    pymodel.FuncRef
	node  syntax.NodeID // the condition
}

// maxForward bounds how far the parameter is followed into callees.
const maxForward = 4

// emptinessTests maps each name that a KV class's code tests for
// emptiness in an if (`len(kv_indices) == 0`, `kv_indices.size == 0`,
// `not kv_indices`, also as an attribute `self.dst_kv_indices.size`) to
// the tests, computed once per pass over the loaded files.
func (c *checker) emptinessTests() map[string][]emptinessTest {
	if c.tests == nil {
		c.tests = c.pass.Project.Shared(testsKey{c.paths}, func() any { return c.findTests() }).(map[string][]emptinessTest)
	}
	return c.tests
}

// testsKey memoises the tests per project and send-path configuration.
type testsKey struct{ paths *sendpath.Paths }

func (c *checker) findTests() map[string][]emptinessTest {
	tests := map[string][]emptinessTest{}
	scope := c.paths.Scope()
	for fi := range c.ix.Files {
		file := c.pass.Project.ModelFile(int32(fi))
		s := c.ix.Summary(int32(fi))
		if file == nil || s == nil {
			continue
		}
		t := file.Tree()
		for gi := range s.Functions {
			fn := pymodel.FuncRef{File: int32(fi), Func: int32(gi)}
			owner, ok := scope.Owner(fn)
			if !ok || !scope.IsKVClass(owner) || s.Functions[gi].Parent >= 0 {
				continue
			}
			def := s.Functions[gi].Def
			if def == syntax.NoNode || int(def) >= t.Len() {
				continue
			}
			for n := def; n < t.SubtreeEnd(def); n++ {
				switch t.Kind(n) {
				case syntax.IfStatement, syntax.ElifClause:
					for _, name := range lengthTested(t, condOf(t, n), true) {
						tests[name] = append(tests[name], emptinessTest{owner, fn, condOf(t, n)})
					}
				}
			}
		}
	}
	return tests
}

// otherTest returns a test of name in a KV class unrelated to owner (not
// owner, an ancestor or a descendant): another backend's or the other
// side's.
func (c *checker) otherTest(name string, owner pymodel.ClassRef) (emptinessTest, bool) {
	related := map[pymodel.ClassRef]bool{owner: true}
	for _, b := range c.ix.MRO(owner) {
		if b.Class.Valid() {
			related[b.Class] = true
		}
	}
	for _, k := range c.ix.Family(owner) {
		related[k] = true
	}
	for _, tst := range c.emptinessTests()[name] {
		if !related[tst.owner] {
			return tst, true
		}
	}
	return emptinessTest{}, false
}

// checkBackend looks at the send-path function fn of a KV class: a call
// that hands an indices parameter, unchanged, to the transport (directly
// or through project callees that pass it on) with no length test on the
// way, when another KV class tests that name for emptiness.
func (c *checker) checkBackend(fn pymodel.FuncRef) {
	owner, ok := c.paths.Scope().Owner(fn)
	if !ok {
		return
	}
	f := c.ix.Func(fn)
	for pi := range f.Params {
		p := &f.Params[pi]
		if p.Kind != pymodel.Positional && p.Kind != pymodel.KeywordOnly || !strings.HasSuffix(p.Name, "indices") {
			continue
		}
		tst, ok := c.otherTest(p.Name, owner)
		if !ok {
			continue
		}
		fl := c.flowOf(fn)
		if fl == nil {
			return
		}
		if c.callerForwards(fn, pi) {
			continue // reported where the chunk enters the route
		}
		if arg, transport, ok := c.reachesTransport(fl, p.Name, 0); ok && arg != syntax.NoNode {
			c.reportBackend(fl, arg, p.Name, tst, transport)
			return // one finding per function
		}
	}
}

// callerForwards reports whether a KV class function on a send path
// hands its own indices parameter (one another KV class tests too) to
// parameter pi of fn, untested: the route is reported there, where the
// chunk enters it and the request is known.
func (c *checker) callerForwards(fn pymodel.FuncRef, pi int) bool {
	scope := c.paths.Scope()
	for _, site := range c.ix.Callers(fn) {
		g := pymodel.FuncRef{File: site.File, Func: c.ix.Call(site).Func}
		if g.Func < 0 || g == fn || !c.paths.OnPath(g) {
			continue
		}
		owner, ok := scope.Owner(g)
		if !ok || !scope.IsKVClass(owner) {
			continue
		}
		gl := c.flowOf(g)
		if gl == nil {
			continue
		}
		for _, cal := range c.ix.Callees(site) {
			if cal.Func != fn || !followed(c.ix, cal) {
				continue // a route reachesTransport does not take is not the caller's to report
			}
			bind := c.ix.BindArgs(site, cal)
			for ai, a := range c.ix.Args(site) {
				if ai >= len(bind) || bind[ai] != pi || a.Star != 0 || !strings.HasSuffix(a.Path, "indices") ||
					strings.Contains(a.Path, ".") || !c.isParam(gl, a.At.Node, a.Path) {
					continue
				}
				if _, ok := c.otherTest(a.Path, owner); !ok {
					continue
				}
				call := c.ix.Call(site)
				if !c.refused(gl, call.At.Node, []string{a.Path}) && !concluded(gl.tree, call.At.Node, gl.def) {
					return true
				}
			}
		}
	}
	return false
}

// reachesTransport follows parameter name of fl: it returns the argument
// node in fl that starts a route by which the parameter, unchanged,
// reaches a transport call with no test of its length on the way (and no
// terminal status set before the call in fl), and that transport call
// (as file and node).
func (c *checker) reachesTransport(fl *flow, name string, depth int) (syntax.NodeID, *transportCall, bool) {
	t := fl.tree
	f := c.ix.Func(fl.fn)
	body := t.Field(f.Def, syntax.FBody)
	if body == syntax.NoNode || depth > maxForward {
		return syntax.NoNode, nil, false
	}
	if looksAtLength(t, body, name) {
		return syntax.NoNode, nil, false
	}
	for _, site := range c.ix.CallsIn(fl.fn) {
		call := c.ix.Call(site)
		args := c.ix.Args(site)
		for ai, a := range args {
			if a.Star != 0 || a.Path != name || !c.isParam(fl, a.At.Node, name) {
				continue
			}
			if c.refused(fl, call.At.Node, []string{name}) || concluded(t, call.At.Node, fl.def) {
				continue
			}
			if isTransport(c.ix, site, call) {
				return a.At.Node, &transportCall{fl: fl, node: call.At.Node}, true
			}
			for _, cal := range c.ix.Callees(site) {
				if !followed(c.ix, cal) {
					continue
				}
				bind := c.ix.BindArgs(site, cal)
				if ai >= len(bind) || bind[ai] < 0 {
					continue
				}
				next := c.flowOf(cal.Func)
				if next == nil {
					continue
				}
				if _, tc, ok := c.reachesTransport(next, c.ix.Func(cal.Func).Params[bind[ai]].Name, depth+1); ok {
					return a.At.Node, tc, true
				}
			}
		}
	}
	return syntax.NoNode, nil, false
}

// followed: the callees a route to the transport goes through, for the
// caller's walk and the callee's alike: a project function resolved
// statically (not one override among several, not a stub).
func followed(ix *pymodel.Index, cal pymodel.Callee) bool {
	return cal.Func.Valid() && !cal.Virtual && !ix.Func(cal.Func).Stub
}

type transportCall struct {
	fl   *flow
	node syntax.NodeID
}

// isParam: the name read at n is the parameter's own value (only the
// parameter's binding reaches it).
func (c *checker) isParam(fl *flow, n syntax.NodeID, name string) bool {
	ds := fl.defs.Reaching(n, name)
	if len(ds) == 0 {
		return false
	}
	for _, d := range ds {
		if fl.defs.Def(d).Kind != reaching.Param {
			return false
		}
	}
	return true
}

// isTransport: a call outside the project on something the object holds
// (`self.engine.transfer(...)`, `self.agent.post(...)`).
func isTransport(ix *pymodel.Index, site pymodel.CallSite, call *pymodel.Call) bool {
	if call.Kind != pymodel.RefAttr || !strings.HasPrefix(call.Recv, "self.") {
		return false
	}
	for _, cal := range ix.Callees(site) {
		if cal.Func.Valid() {
			return false
		}
	}
	return true
}

func (c *checker) reportBackend(fl *flow, arg syntax.NodeID, name string, tst emptinessTest, tc *transportCall) {
	tfile := c.pass.Project.ModelFile(tst.fn.File)
	line := 0
	if tfile != nil {
		line = tfile.Tree().Start(tst.node).Line
	}
	ttext := clip(tc.fl.tree.Text(tc.node), 60)
	msg := fmt.Sprintf("`%s` can arrive empty (`%s` tests it for that, line %d), and here it goes on to the transport "+
		"(`%s`) with no test of its length on the way: an empty chunk posts nothing, so no completion arrives for it "+
		"and the decode side waits for the request until its timeout. Test its length first: skip an empty chunk "+
		"that is not the last, and on the last one send only the metadata or mark the request Success (record %s)",
		name, c.ix.Func(tst.fn).QualName, line, ttext, Record)
	var related []analyzer.Related
	if tfile != nil {
		related = append(related, analyzer.RelatedAt(tfile, tst.node, "another KV class tests it for emptiness"))
	}
	related = append(related, analyzer.RelatedAt(tc.fl.file, tc.node, "the transport call"))
	c.pass.ReportNode(arg, msg, related...)
}
