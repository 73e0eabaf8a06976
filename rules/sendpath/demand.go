package sendpath

import (
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/rules/namepattern"
)

// Demand is what the KV rules read, so that a run parses and models only
// that (analyzer.Demand): the files that define KV classes and their
// ancestors, the files of configured entries, then, round by round, the
// modules that KV code and send paths call into, construct, annotate or
// pass as callbacks. Every KV rule lists it.
var Demand = &analyzer.Demand{Name: "kv-scope", Seeds: seeds, More: more}

func scopeConfig(sc *analyzer.Scan) Config {
	return analyzer.ScanSectionOf(sc, Section, DefaultScopeOptions).Config()
}

// seeds are memoised on the Scan: memkind's demand lists them too, and
// finding the KV classes walks every pre-scanned class.
func seeds(sc *analyzer.Scan) []int {
	cfg := scopeConfig(sc)
	v := sc.Shared(seedsKey{cfg.key()}, func() any { return slices.Clip(seedsOf(sc, cfg)) })
	return v.([]int)
}

// seedsKey memoises seeds on a Scan.
type seedsKey struct{ key }

func seedsOf(sc *analyzer.Scan, cfg Config) []int {
	out := sc.Units.KVUnits(append(slices.Clone(cfg.bases()), cfg.serverBases()...))
	if len(cfg.queueMethods()) > 0 {
		mods, _ := namepattern.Compile(cfg.queueModules()) // validated with the options
		classes, _ := namepattern.Compile(cfg.queueClasses())
		out = append(out, sc.Units.ClassUnits(func(module, class string) bool {
			return mods.Match(module) && classes.Match(class)
		})...)
	}
	for _, e := range cfg.Entries {
		// An entry names a function by a tail of its qualified name: the
		// module it lives in if the name is whole, else whatever defines
		// the class or function it ends with.
		if i, ok := sc.UnitOf(e); ok {
			out = append(out, i)
		}
		out = append(out, sc.Units.Defining(pyname.Last(e))...)
		if strings.Contains(e, ".") {
			out = append(out, sc.Units.Defining(pyname.Last(pyname.Parent(e)))...)
		}
	}
	return out
}

// more returns the names that functions on send paths and functions of KV
// classes refer to and that resolve outside the loaded project: callees,
// call arguments (thread targets, callbacks), parameter annotations, and
// the values KV classes assign to their attributes (constructors).
//
// It is memoised on the project: a rule whose demand adds to this one
// (memkind's) asks for it again in the same round.
func more(sc *analyzer.Scan, proj *analyzer.Project) []string {
	cfg := scopeConfig(sc)
	v := proj.Shared(moreKey{cfg.key()}, func() any { return slices.Clip(outsideNames(proj, cfg)) })
	return v.([]string)
}

// moreKey memoises more on a project.
type moreKey struct{ key }

func outsideNames(proj *analyzer.Project, cfg Config) []string {
	ix := proj.Index
	if ix == nil {
		return nil
	}
	paths := ReachOf(proj, cfg)
	var out []string
	seen := map[pymodel.FuncRef]bool{}
	outside := func(fn pymodel.FuncRef, dotted string) {
		if dotted == "" {
			return
		}
		sym := ix.Resolve(fn.File, fn.Func, dotted)
		switch {
		case sym.Kind == pymodel.SymExternal, sym.Kind == pymodel.SymModule && sym.File < 0:
			out = append(out, sym.Name)
		}
	}
	queueMods, _ := namepattern.Compile(cfg.queueModules())
	visit := func(fn pymodel.FuncRef) {
		if seen[fn] {
			return
		}
		seen[fn] = true
		record := outside
		if paths.QueueOnly(fn) {
			// A queue's paths stay in the disaggregation modules: the
			// scheduler they call into is not loaded for them.
			record = func(fn pymodel.FuncRef, dotted string) {
				if dotted == "" {
					return
				}
				if sym := ix.Resolve(fn.File, fn.Func, dotted); queueMods.Match(sym.Name) || queueMods.Match(pyname.Parent(sym.Name)) {
					outside(fn, dotted)
				}
			}
		}
		for _, site := range ix.CallsIn(fn) {
			c := ix.Call(site)
			if !resolvedInProject(ix.Callees(site)) {
				record(fn, c.Callee())
			}
			for _, a := range ix.Args(site) {
				record(fn, a.Path)
			}
		}
		for _, p := range ix.Func(fn).Params {
			record(fn, annotationName(p.Annotation))
		}
	}
	files := map[int32]bool{}
	for _, fn := range paths.Funcs() {
		visit(fn)
		files[fn.File] = true
	}
	// What the disaggregation modules on the paths import from their own
	// package (`from ...base import KVPoll`): constants and classes read in
	// tests rather than called, such as the statuses an if chain covers.
	for fi := range files {
		for _, imp := range ix.Summary(fi).Imports {
			if imp.Func >= 0 || imp.Alias == "" {
				continue
			}
			switch sym := ix.Resolve(fi, -1, imp.Alias); {
			case sym.Kind == pymodel.SymExternal && queueMods.Match(pyname.Parent(sym.Name)):
				out = append(out, sym.Name)
			case sym.Kind == pymodel.SymNone && imp.Level == 0 && imp.Name != "" && imp.Name != "*" && queueMods.Match(imp.Module):
				// A package whose __init__ is not loaded while one of its
				// modules is: the name it re-exports is not found yet.
				out = append(out, imp.Module+"."+imp.Name)
			}
		}
	}
	scope := paths.Scope()
	for fi := range ix.Files {
		for _, fn := range ix.FuncsOf(int32(fi)) {
			if scope.Contains(fn) || scope.InServer(fn) {
				visit(fn)
			}
		}
		s := ix.Summary(int32(fi))
		for u := range s.Uses {
			use := &s.Uses[u]
			if use.Kind != pymodel.Assign || !use.Self || use.Ref == "" {
				continue
			}
			fn := pymodel.FuncRef{File: int32(fi), Func: use.Func}
			if scope.Contains(fn) {
				outside(fn, use.Ref)
			}
		}
	}
	return out
}

// annotationName is the dotted class name an annotation mentions first
// (`Optional["pkg.Mgr"]` gives pkg.Mgr), "" when there is none.
func annotationName(a string) string {
	a = strings.TrimSpace(a)
	for _, wrap := range []string{"Optional[", "typing.Optional["} {
		if strings.HasPrefix(a, wrap) && strings.HasSuffix(a, "]") {
			a = a[len(wrap) : len(a)-1]
		}
	}
	a = strings.Trim(a, `"' `)
	if i := strings.IndexAny(a, "[| "); i >= 0 {
		a = a[:i]
	}
	return a
}

// resolvedInProject reports callees of which one is a loaded project
// function or class: a call that resolves only to an external name (a
// function imported inside a function from a module not loaded yet) asks
// for that module.
func resolvedInProject(cs []pymodel.Callee) bool {
	for _, c := range cs {
		if c.Func.Valid() || c.Class.Valid() {
			return true
		}
	}
	return false
}
