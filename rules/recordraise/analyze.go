package recordraise

import (
	"cmp"
	"slices"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/kvfail"
	"github.com/sglint/sglint/rules/sendpath"
)

// finding is one SGL010 report: a record's error can escape an outermost
// entry through its call Node (or, when the entry raises it itself, at the
// raise statement).
type finding struct {
	File   *analyzer.File
	Node   syntax.NodeID // the entry's call into the path, or the raise
	Record *records.Record
	Entry  sendpath.Entry
	// Chain is the call path from the entry: Chain[0] is in the entry,
	// Chain[len-1] calls the raising function (empty when the entry
	// raises).
	Chain []pymodel.CallSite
	Site  analyzer.RaiseSite
	Raise pymodel.FuncRef // the raising function
	// Cond is the raising condition in the entry's names (empty when it
	// cannot be said there).
	Cond []facts.Fact
	// Use, when set, is a use of the state the record's checks name (Site
	// is then empty): the finding is at the use.
	Use *stateUse
}

// findings runs sendpath.Escapes from every raise site of the project,
// once per entry call and record.
func findings(proj *analyzer.Project, paths *sendpath.Paths) []finding {
	ix := paths.Index()
	defs := map[*analyzer.File]map[syntax.NodeID]pymodel.FuncRef{}
	type key struct {
		file   *analyzer.File
		node   syntax.NodeID
		record string
	}
	seen := map[key]bool{}
	var out []finding
	for _, s := range proj.RaiseSites {
		fn, ok := funcOf(ix, defs, s.File, s.Stmt)
		if !ok || !paths.OnKVPath(fn) {
			continue // module level, unreadable, or no entry reaches it
		}
		t := s.File.Tree()
		if kvfail.ExhaustiveElse(ix, fn, t, s.Stmt) {
			continue // the if chain before it took every value: unreachable
		}
		var atRaise []facts.Fact
		if r := paths.Facts(fn); r != nil {
			atRaise = r.At(s.Stmt)
		}
		cond := conditionFacts(t, s.Site, atRaise)
		rs := sendpath.RaiseSite{Func: fn, Node: s.Stmt, Exc: s.Record.ClassName(),
			Message: s.Template.String(), Raising: cond, Direct: true}
		for _, e := range paths.Escapes(rs) {
			if e.CallerHandles || paths.RaisesByContract(e.Entry) {
				continue // every caller confines it, or the entry raises by contract
			}
			f := finding{Record: s.Record, Entry: e.Entry, Site: s, Raise: fn}
			for _, st := range e.Chain[1:] {
				f.Chain = append(f.Chain, st.Site)
			}
			if len(f.Chain) == 0 {
				f.File, f.Node = s.File, s.Stmt
			} else {
				f.File, f.Node = paths.File(e.Call.File), ix.Call(e.Call).At.Node
			}
			if f.File == nil {
				continue
			}
			k := key{f.File, f.Node, f.Record.ID}
			if seen[k] {
				continue
			}
			seen[k] = true
			f.Cond = entryCondition(paths, cond, e.Chain)
			out = append(out, f)
		}
	}
	return append(out, useFindings(proj, paths)...)
}

// entryCondition is the raising condition translated up the chain into
// the entry's names: what the entry would have had to check.
func entryCondition(paths *sendpath.Paths, cond []facts.Fact, chain []pymodel.Step) []facts.Fact {
	for i := len(chain) - 1; i >= 1 && len(cond) > 0; i-- {
		cond = paths.TranslateUp(cond, chain[i].Site, chain[i].Func)
	}
	var out []facts.Fact
	for _, f := range dedupe(cond) {
		if !f.Kind.Local() {
			out = append(out, f)
		}
	}
	// Attribute paths first: they are what an entry can check.
	slices.SortStableFunc(out, func(x, y facts.Fact) int { return cmp.Compare(attrRank(y.Path), attrRank(x.Path)) })
	return out
}

// attrRank ranks a path: 1 for one with an attribute or subscript.
func attrRank(p facts.Path) int {
	if string(p) != p.Root() {
		return 1
	}
	return 0
}

// funcOf is the project function whose body holds n.
func funcOf(ix *pymodel.Index, defs map[*analyzer.File]map[syntax.NodeID]pymodel.FuncRef, f *analyzer.File, n syntax.NodeID) (pymodel.FuncRef, bool) {
	if f.Model < 0 || int(f.Model) >= len(ix.Files) {
		return pymodel.NoFunc, false
	}
	m, ok := defs[f]
	if !ok {
		m = map[syntax.NodeID]pymodel.FuncRef{}
		for _, fn := range ix.FuncsOf(f.Model) {
			m[ix.Func(fn).Def] = fn
		}
		defs[f] = m
	}
	fn, ok := m[f.Tree().Ancestor(n, syntax.FunctionDefinition, syntax.Lambda)]
	return fn, ok
}
