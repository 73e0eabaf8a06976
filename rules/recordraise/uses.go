package recordraise

import (
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/sendpath"
)

// A record's validationCode (or typeGuard) names the state its raise site
// checks: `assert kv_mem_descs` says the descriptors must be non-empty
// before they are used. Every other use of that state on a KV path that
// fails the same way without the check is the record's failure waiting
// elsewhere: `descs[0]` (IndexError) when it must be non-empty,
// `info.mem_kind.value` (AttributeError) when it must not be None.

// stateUse is one such use.
type stateUse struct {
	Need  records.Required
	Node  syntax.NodeID // the failing expression
	Read  facts.Path    // the state as the use reads it: its path, or a local bound to it
	State facts.Path    // the state's attribute path
	Exc   string        // what it raises: IndexError, TypeError, AttributeError
}

// useFindings are the escapes of the uses of the state the loaded records'
// checks name.
func useFindings(proj *analyzer.Project, paths *sendpath.Paths) []finding {
	type need struct {
		rec *records.Record
		req records.Required
	}
	byName := map[string][]need{}
	for _, r := range proj.Records.Records {
		for _, q := range r.Required() {
			byName[q.State] = append(byName[q.State], need{r, q})
		}
	}
	if len(byName) == 0 {
		return nil
	}
	ix := paths.Index()
	evidence := stateEvidence(ix, paths)
	wanted := func(name string) bool { return len(byName[name]) > 0 }
	// The first use in a function stands for the later ones: past it, the
	// state was good (or the error left).
	type useKey struct {
		fn     pymodel.FuncRef
		read   facts.Path
		record string
	}
	var out []finding
	seen := map[useKey]bool{}
	for _, fn := range paths.Funcs() {
		file := paths.File(fn.File)
		if file == nil || file.Model < 0 {
			continue
		}
		t := file.Tree()
		if t == nil {
			continue
		}
		def := ix.Func(fn).Def
		if t.Kind(def) != syntax.FunctionDefinition {
			continue
		}
		aliases := localAliases(t, def)
		for n := range t.OwnScope(def) {
			for _, u := range usesAt(t, n, aliases, wanted) {
				for _, nd := range byName[u.name] {
					if nd.req.Kind != u.kind || !evidenceAt(ix, fn, u, evidence) {
						continue
					}
					k := useKey{fn, u.path, nd.rec.ID}
					if seen[k] {
						continue
					}
					use := &stateUse{Need: nd.req, Node: n, Read: u.path, State: u.state, Exc: u.exc}
					rs := sendpath.RaiseSite{Func: fn, Node: n, Exc: u.exc, Direct: true,
						Excluded: excluded(u)}
					for _, e := range paths.Escapes(rs) {
						if e.CallerHandles || paths.RaisesByContract(e.Entry) {
							continue
						}
						f := finding{File: file, Node: n, Record: nd.rec, Entry: e.Entry, Raise: fn, Use: use}
						for _, st := range e.Chain[1:] {
							f.Chain = append(f.Chain, st.Site)
						}
						out = append(out, f)
						seen[k] = true
						break // one finding per use and record, at the use
					}
				}
			}
		}
	}
	return out
}

// use is a candidate use: the state's name, the check it needs, the path
// read and the exception.
type use struct {
	name  string
	kind  facts.Kind
	path  facts.Path // as read: the attribute path, or a local bound to it
	state facts.Path // the attribute path
	exc   string
}

// usesAt reads the uses at node n that fail without the check: a
// constant index into the state (`x.descs[0]`, `x.descs[-1]`) needs it
// non-empty; an attribute of it, an index into it or a call of it needs it
// not None. A use in a test's own expression (`x.descs[0] if x.descs else
// None`, `x.kind and x.kind.value`) is left to the flow facts there.
func usesAt(t *syntax.Tree, n syntax.NodeID, aliases map[string]facts.Path, wanted func(string) bool) []use {
	var out []use
	var obj syntax.NodeID
	switch t.Kind(n) {
	case syntax.Subscript:
		obj = t.Field(n, syntax.FValue)
	case syntax.Attribute:
		obj = t.Field(n, syntax.FObject)
	case syntax.Call:
		obj = t.Field(n, syntax.FFunction)
	default:
		return nil
	}
	if target(t, n) {
		return nil
	}
	p, ok := facts.AttrPathOf(t, obj)
	if !ok {
		return nil
	}
	state := facts.Path(p)
	if !strings.ContainsRune(p, '.') {
		// A bare name is a local: the record's state is an attribute,
		// read here through the local bound to it.
		if state, ok = aliases[p]; !ok {
			return nil
		}
	}
	name := string(state[strings.LastIndexByte(string(state), '.')+1:])
	if !wanted(name) {
		return nil
	}
	if t.ConstantIndex(n) {
		out = append(out, use{name, facts.Truthy, facts.Path(p), state, "IndexError"})
	}
	exc := "AttributeError"
	if t.Kind(n) != syntax.Attribute {
		exc = "TypeError"
	}
	return append(out, use{name, facts.NotNone, facts.Path(p), state, exc})
}

// localAliases maps the locals of function def that are only ever bound
// to one attribute path (`handler = self._staging_handler`, once or in
// several branches) to that path.
func localAliases(t *syntax.Tree, def syntax.NodeID) map[string]facts.Path {
	out := map[string]facts.Path{}
	other := map[string]bool{} // bound to anything else somewhere
	for n := range t.OwnScope(def) {
		var left syntax.NodeID
		switch t.Kind(n) {
		case syntax.Assignment, syntax.AugmentedAssignment, syntax.ForStatement:
			left = t.Field(n, syntax.FLeft)
		case syntax.NamedExpression:
			left = t.Field(n, syntax.FName)
		default:
			continue
		}
		if t.Kind(n) != syntax.Assignment || t.Kind(left) != syntax.Identifier {
			for d := left; d != syntax.NoNode && d < t.SubtreeEnd(left); d++ {
				if t.Kind(d) == syntax.Identifier {
					other[t.Text(d)] = true
				}
			}
			continue
		}
		name := t.Text(left)
		p, ok := facts.AttrPathOf(t, t.Field(n, syntax.FRight))
		if !ok || !strings.ContainsRune(p, '.') || out[name] != "" && out[name] != facts.Path(p) {
			other[name] = true
			continue
		}
		out[name] = facts.Path(p)
	}
	for name := range other {
		delete(out, name)
	}
	return out
}

// target: n is written to or deleted, not read.
func target(t *syntax.Tree, n syntax.NodeID) bool {
	for c, p := n, t.Parent(n); p != syntax.NoNode; c, p = p, t.Parent(p) {
		switch t.Kind(p) {
		case syntax.Assignment, syntax.AugmentedAssignment:
			return t.FieldOf(c) == syntax.FLeft
		case syntax.DeleteStatement:
			return true
		case syntax.PatternList, syntax.TuplePattern, syntax.ListPattern, syntax.ExpressionList:
			continue
		}
		return false
	}
	return false
}

// excluded are the facts any one of which rules the use out.
func excluded(u use) []facts.Fact {
	var out []facts.Fact
	for _, p := range []facts.Path{u.path, u.state} {
		out = append(out, facts.NonEmptyFact(p))
		if u.kind == facts.NotNone {
			out = append(out, facts.NotNoneFact(p))
		}
		if p == u.state {
			break
		}
	}
	return out
}

// stateEvidence says, per attribute name and needed check, whether some
// KV class shows the state can fail it (canFail). A check on state no KV
// class ever leaves empty or None names nothing to guard: its uses are not
// reported.
func stateEvidence(ix *pymodel.Index, paths *sendpath.Paths) map[[2]any]bool {
	out := map[[2]any]bool{}
	files := map[int32]bool{}
	for _, fn := range paths.Funcs() {
		files[fn.File] = true
	}
	for f := range files {
		s := ix.Files[f].Summary
		for ci := range s.Classes {
			c := pymodel.ClassRef{File: f, Class: int32(ci)}
			names := ix.SelfPaths(c)
			for _, fd := range s.Classes[ci].Fields {
				names = append(names, fd.Name)
			}
			for _, name := range names {
				if strings.ContainsAny(name, ".[") {
					continue
				}
				for _, k := range []facts.Kind{facts.NotNone, facts.Truthy} {
					if canFail(ix, c, name, k) {
						out[[2]any{name, k}] = true
					}
				}
			}
		}
	}
	return out
}

// canFail: instances of c can hold attribute name in a state that fails
// check k: assigned None or declared Optional (either check), or assigned
// an empty collection (non-empty).
func canFail(ix *pymodel.Index, c pymodel.ClassRef, name string, k facts.Kind) bool {
	info := ix.Attr(c, name)
	if info.Optional {
		return true
	}
	if k != facts.Truthy {
		return false
	}
	for _, a := range info.Assigns {
		var v pymodel.ValueKind
		if a.Field >= 0 {
			v = ix.Files[a.Class.File].Summary.Classes[a.Class.Class].Fields[a.Field].Value
		} else {
			v = ix.Use(a.Use).Value
		}
		if v.IsEmptyCollection() || v == pymodel.ValueNone {
			return true
		}
	}
	return false
}

// evidenceAt decides for one use: when the class of the object the state
// is read from is known (`self.peer` typed `PeerInfo`), that class must
// show the state can fail the check; otherwise some KV class must.
func evidenceAt(ix *pymodel.Index, fn pymodel.FuncRef, u use, global map[[2]any]bool) bool {
	p := string(u.state)
	if i := strings.LastIndexByte(p, '.'); i > 0 {
		if c, ok := ix.TypeOf(fn.File, fn.Func, p[:i]); ok {
			return canFail(ix, c, u.name, u.kind)
		}
	}
	return global[[2]any{u.name, u.kind}]
}
