// Package memkind implements SGL002 kv-send-with-unchecked-mem-kind: a
// value that may be None passed as a memory-kind argument of a KV send
// without an `is not None` check on every path (record d0bf6111ca6909b6).
//
// The rule looks at every call argument bound to a memory-kind parameter
// (a keyword argument with such a name, or a positional argument mapped
// through the signature of a project callee), asks where its value may
// come from (sources.go, attrs.go), and reports it when some source may be
// None, no check on the way proves otherwise, and the callee does not
// refuse None itself (sinks.go).
package memkind

import (
	_ "embed"
	"fmt"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/reaching"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/namepattern"
	"github.com/sglint/sglint/rules/sendpath"
)

//go:embed doc.md
var doc string

// record is the error record the rule derives from.
const record = "d0bf6111ca6909b6"

// Rule SGL002 kv-send-with-unchecked-mem-kind.
var Rule = &analyzer.Rule{
	ID:           "SGL002",
	Name:         "kv-send-with-unchecked-mem-kind",
	Severity:     analyzer.Error,
	Title:        "Memory-kind argument of a KV send may be None",
	Doc:          doc,
	Record:       record,
	RecordFields: []string{"messagePattern", "validationCode"},
	RecordUse:    "The record's raise is a send handed no destination memory kind; its validationCode tests the kind for None before the send, which is the check SGL002 asks for on every path to a memory-kind argument.",
	Sections:     []*analyzer.Section{sendpath.Section},
	Options:      func() any { return DefaultOptions() },
	Run:          run,
}

// Options configure SGL002 ([tool.sglint.rules.SGL002]).
type Options struct {
	// SinkParams are the names of parameters that take a memory kind, as
	// shell patterns (path.Match: *, ?, [...]).
	SinkParams []string `toml:"sink-params"`
}

// DefaultOptions are the options used when none are configured.
func DefaultOptions() *Options {
	return &Options{SinkParams: []string{"*mem_kind", "*mem_kinds"}}
}

// Validate rejects malformed patterns.
func (o *Options) Validate() error {
	if _, err := namepattern.Compile(o.SinkParams); err != nil {
		return fmt.Errorf("sink-params: %v", err)
	}
	return nil
}

// sinkSet compiles SinkParams (every call argument of a project is tested
// against them). A malformed pattern, refused by Validate, matches nothing.
func (o *Options) sinkSet() *namepattern.Set {
	s, _ := namepattern.Compile(o.SinkParams)
	return s
}

func run(pass *analyzer.Pass) error {
	f := pass.File
	ix := pass.Project.Index
	if f.Summary == nil || ix == nil || f.Model < 0 || int(f.Model) >= len(ix.Files) {
		return nil
	}
	opts := analyzer.OptionsOf(pass, DefaultOptions)
	c := &checker{
		pass:    pass,
		ix:      ix,
		file:    f.Model,
		opts:    opts,
		sinks:   opts.sinkSet(),
		flows:   map[pymodel.FuncRef]*flow{},
		checked: map[paramRef]checkState{},
		callers: map[pymodel.FuncRef]*flow{},
	}
	// Only sends on KV send paths: a memory-kind argument elsewhere (a
	// cache pool, a weight loader) is not the recorded failure.
	paths := sendpath.Of(pass)
	s := ix.Summary(f.Model)
	for ci := range s.Calls {
		if fn := s.Calls[ci].Func; fn >= 0 && paths.OnPath(pymodel.FuncRef{File: f.Model, Func: fn}) {
			c.checkCall(pymodel.CallSite{File: f.Model, Call: int32(ci)})
		}
	}
	return nil
}

// checker holds what one pass computes; flows of functions in other files
// (callees) are built on demand and kept for the pass.
type checker struct {
	pass    *analyzer.Pass
	ix      *pymodel.Index
	file    int32 // the pass's file in the index
	opts    *Options
	sinks   *namepattern.Set // opts.SinkParams compiled
	flows   map[pymodel.FuncRef]*flow
	checked map[paramRef]checkState
	callers map[pymodel.FuncRef]*flow // flows under callers' checks (nil: none)
}

// tree is the syntax tree of index file fi, nil if it is not loaded.
func (c *checker) tree(fi int32) *syntax.Tree {
	if f := c.pass.Project.ModelFile(fi); f != nil {
		return f.Tree()
	}
	return nil
}

// flow is one function's graph with what is known along it.
type flow struct {
	fn    pymodel.FuncRef
	tree  *syntax.Tree
	facts *facts.Result
	defs  *reaching.Result
}

// flowOf builds (once per pass) the flow of fn; nil when its tree is not
// loaded. Facts come from the project's shared Flow (computed once per
// function for the run, with callees' post-facts and kills), so SGL002
// sees the same checks as the other rules.
func (c *checker) flowOf(fn pymodel.FuncRef) *flow {
	if fl, ok := c.flows[fn]; ok {
		return fl
	}
	var fl *flow
	t := c.tree(fn.File)
	var g *cfg.Graph
	var fr *facts.Result
	if pf := c.pass.Project.Flow; pf != nil {
		// With what the constructors established and property aliases
		// (pymodel ClassFacts).
		g, fr = pf.Graph(fn), pf.Analyze(fn, pf.ClassFacts(fn))
	} else if def := c.ix.Func(fn).Def; t != nil && def >= 0 && int(def) < t.Len() {
		g = cfg.New(t, def)
		fr = facts.Analyze(t, g, facts.Options{})
	}
	if t != nil && g != nil && fr != nil {
		fl = newFlow(fn, t, g, fr)
	}
	c.flows[fn] = fl
	return fl
}

func newFlow(fn pymodel.FuncRef, t *syntax.Tree, g *cfg.Graph, fr *facts.Result) *flow {
	fl := &flow{fn: fn, tree: t, facts: fr}
	// A binding stops being a possible None source on the edges that prove
	// its name not None (`if kind is None: kind = x` leaves only x's
	// binding after the if).
	fl.defs = reaching.AnalyzeWith(g, reaching.Options{Cut: func(b cfg.BlockID, i int, _ cfg.Edge) []string {
		var names []string
		for _, f := range fr.OnEdge(b, i) {
			if f.Kind == facts.NotNone && isName(f.Path) {
				names = append(names, string(f.Path))
			}
		}
		return names
	}})
	return fl
}

// callerFlow is fn's flow under the facts that hold on entry because every
// project caller checked them before the call (pymodel Guards over what
// the callers reach); nil when fn has no callers in functions, or nothing
// is known on entry.
func (c *checker) callerFlow(fn pymodel.FuncRef) *flow {
	if fl, ok := c.callers[fn]; ok {
		return fl
	}
	c.callers[fn] = nil
	pf := c.pass.Project.Flow
	sites := c.ix.Callers(fn)
	if pf == nil || len(sites) == 0 || c.tree(fn.File) == nil {
		return nil
	}
	var starts []pymodel.Start
	seen := map[pymodel.FuncRef]bool{}
	for _, s := range sites {
		caller := c.ix.Call(s).Func
		if caller < 0 {
			return nil // called at module level: nothing is known there
		}
		if ref := (pymodel.FuncRef{File: s.File, Func: caller}); !seen[ref] && ref != fn {
			seen[ref] = true
			starts = append(starts, pymodel.Start{Func: ref, Self: pymodel.NoClass})
		}
	}
	r := c.ix.Reachable(starts, pymodel.ReachOptions{})
	if !r.Reached(fn) {
		return nil
	}
	guards := pf.Guards(r)
	res := guards.Result(fn)
	if res == nil || len(guards.Entry(fn)) == 0 {
		return nil
	}
	fl := newFlow(fn, c.tree(fn.File), res.Graph(), res)
	c.callers[fn] = fl
	return fl
}

func isName(p facts.Path) bool { return p != "" && p.Root() == string(p) }

// staticCallee is the project function a call certainly reaches (not an
// override in a subclass), if any.
func (c *checker) staticCallee(site pymodel.CallSite) (pymodel.Callee, bool) {
	for _, cal := range c.ix.Callees(site) {
		if !cal.Virtual && cal.Func.Valid() {
			return cal, true
		}
	}
	return pymodel.Callee{}, false
}

// related builds a related location from a position in index file fi.
func (c *checker) related(fi int32, at pymodel.Pos, msg string) analyzer.Related {
	return analyzer.Related{Path: c.ix.Files[fi].Path, Line: int(at.Line), Column: int(at.Col), Message: msg}
}

// relatedNode builds a related location at node n of fl's tree.
func (c *checker) relatedNode(fl *flow, n syntax.NodeID, msg string) analyzer.Related {
	p := fl.tree.Start(n)
	return analyzer.Related{Path: c.ix.Files[fl.fn.File].Path, Line: p.Line, Column: p.Column, Message: msg}
}
