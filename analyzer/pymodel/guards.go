package pymodel

import (
	"slices"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Guards holds, for the functions of a reachability set, the facts that
// hold on entry to each (every call to it from a reached function is made
// under them: "checks in callers that dominate the call") and each
// function's facts under them. A Guards is immutable once built and safe
// for concurrent reads.
type Guards struct {
	fl      *Flow
	entry   map[FuncRef][]facts.Fact
	results map[FuncRef]*facts.Result
}

// maxGuardRounds bounds the fixed-point iteration of entry facts in a
// cycle of calls; past it, the last (sound, possibly smaller) entry sets
// are kept.
const maxGuardRounds = 6

// Guards computes entry facts over the functions reached in r. Starts have
// none (they are called from outside). Every other function's entry facts
// are the intersection, over its call sites in reached functions, of the
// facts holding at the call, translated into the callee's names (receiver
// to self, arguments to parameters); a call site in unreachable code does
// not count; a function reached only through a lambda argument or a
// virtual edge with no resolvable site has none.
//
// Functions are taken callers first (the components of the reached call
// graph in topological order), so a function's entry facts are computed
// once, from its callers' final facts: the rounds over every function this
// replaced analysed each one again for each level of calls above it. In a
// cycle, facts start empty and grow to a fixed point, so the cycle can only
// make them smaller (sound).
func (fl *Flow) Guards(r *Reach) *Guards { return fl.GuardsCalled(r, nil) }

// GuardsCalled is Guards where a start for which called returns true is
// only ever called from project code (not started as a thread, say): its
// entry facts are the intersection, over all its project call sites,
// reached or not, of the facts there (each caller analysed on its own), so
// a check that every caller makes before the call counts even when the
// callers are not in r. A start with no project caller has none.
func (fl *Flow) GuardsCalled(r *Reach, called func(FuncRef) bool) *Guards {
	order := r.Funcs()
	g := &Guards{fl: fl, entry: make(map[FuncRef][]facts.Fact, len(order)), results: make(map[FuncRef]*facts.Result, len(order))}
	// What the constructors established holds on entry to every function
	// they cannot reach, starts included, and properties alias what their
	// getters return (see ClassFacts). Computed apart, in parallel, each
	// class's invariants first, one class per job: in the order of the
	// functions, two jobs were often two methods of one class, the second
	// waiting while the first analysed the constructors.
	var classes []ClassRef
	seen := map[ClassRef]bool{}
	for _, fn := range order {
		if _, c := fl.ix.SelfOf(fn); c.Valid() && !seen[c] {
			seen[c] = true
			classes = append(classes, c)
		}
	}
	parallelFiles(len(classes), func(i int) { fl.invariants(classes[i]) })
	inv := make([][]facts.Fact, len(order))
	parallelFiles(len(order), func(i int) {
		if fs := fl.ClassFacts(order[i]); len(fs) > 0 {
			sortFacts(fs)
			inv[i] = fs
		}
	})
	cg := reachedCallGraph(fl.ix, r)
	entry := make([][]facts.Fact, len(order))
	results := make([]*facts.Result, len(order))
	copy(entry, inv)
	res := func(fn FuncRef) *facts.Result { return results[cg.at[fn]] }
	// analyzeComp computes the facts of one component's functions, whose
	// callers outside it are done.
	analyzeComp := func(comp []int32) {
		if len(comp) == 1 && !cg.selfCall[comp[0]] {
			i := comp[0]
			fn := order[i]
			switch {
			case !r.IsStart(fn):
				entry[i] = unionFacts(inv[i], g.entryFrom(r, fn, res))
			case called != nil && called(fn):
				entry[i] = unionFacts(inv[i], g.entryFromCallers(fn))
			}
			results[i] = fl.Analyze(fn, entry[i])
			return
		}
		dirty := slices.Clone(comp)
		for round := 0; round < maxGuardRounds && len(dirty) > 0; round++ {
			for _, i := range dirty {
				results[i] = fl.Analyze(order[i], entry[i])
			}
			dirty = dirty[:0]
			for _, i := range comp {
				if fn := order[i]; !r.IsStart(fn) {
					if next := unionFacts(inv[i], g.entryFrom(r, fn, res)); !sameFacts(next, entry[i]) {
						entry[i] = next
						dirty = append(dirty, i)
					}
				}
			}
		}
		for _, i := range dirty { // the last round's changes
			results[i] = fl.Analyze(order[i], entry[i])
		}
	}
	cg.run(analyzeComp)
	for i, fn := range order {
		if len(entry[i]) > 0 {
			g.entry[fn] = entry[i]
		}
		g.results[fn] = results[i]
	}
	return g
}

// entryFrom intersects the facts at fn's call sites in reached callers,
// whose results res gives.
func (g *Guards) entryFrom(r *Reach, fn FuncRef, res func(FuncRef) *facts.Result) []facts.Fact {
	return g.intersectAtCalls(fn, func(caller FuncRef) (*facts.Result, bool) {
		if caller.Func < 0 || !r.Reached(caller) {
			return nil, false
		}
		return res(caller), true
	})
}

// entryFromCallers intersects the facts at every project call site of fn,
// each caller analysed with no entry facts of its own.
func (g *Guards) entryFromCallers(fn FuncRef) []facts.Fact {
	return g.intersectAtCalls(fn, func(caller FuncRef) (*facts.Result, bool) {
		if caller.Func < 0 {
			return nil, true // module-level code calls it with nothing checked
		}
		return g.fl.Analyze(caller, nil), true
	})
}

// intersectAtCalls intersects, over fn's call sites whose caller's facts
// result gives (false: the site does not count; a module-level caller has
// Func -1), the facts holding at the call in fn's names. A caller without
// facts guarantees nothing; a call in dead code counts for none.
func (g *Guards) intersectAtCalls(fn FuncRef, result func(caller FuncRef) (*facts.Result, bool)) []facts.Fact {
	fl := g.fl
	ix := fl.ix
	var acc []facts.Fact
	seen := false
	for _, site := range ix.Callers(fn) {
		call := ix.Call(site)
		cres, counts := result(FuncRef{site.File, call.Func})
		if !counts {
			continue
		}
		t := fl.tree(site.File)
		if cres == nil || t == nil {
			return nil
		}
		if !cres.Reachable(call.At.Node) {
			continue
		}
		var here []facts.Fact
		for _, cal := range ix.Callees(site) {
			if cal.Func != fn {
				continue
			}
			bs := fl.bindings(t, site, cal)
			for _, f := range cres.At(call.At.Node) {
				here = translateFacts(here, f, bs, false)
			}
			break
		}
		sortFacts(here)
		if !seen {
			acc, seen = here, true
		} else {
			acc = intersectFacts(acc, here)
		}
		if len(acc) == 0 {
			return nil
		}
	}
	return acc
}

// unionFacts returns the union of two fact lists, sorted (b may hold what
// a does: the lists are short, so membership is a scan).
func unionFacts(a, b []facts.Fact) []facts.Fact {
	if len(a) == 0 {
		return b
	}
	out := slices.Clone(a)
	for _, y := range b {
		if !slices.Contains(out, y) {
			out = append(out, y)
		}
	}
	sortFacts(out)
	return out
}

// intersectFacts keeps the facts of a that are in b (both sorted).
func intersectFacts(a, b []facts.Fact) []facts.Fact {
	var out []facts.Fact
	for _, x := range a {
		for _, y := range b {
			if x == y {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// Entry returns the facts that hold on entry to fn.
func (g *Guards) Entry(fn FuncRef) []facts.Fact { return g.entry[fn] }

// Result returns fn's facts under its entry facts (nil if fn was not
// reached or has no tree).
func (g *Guards) Result(fn FuncRef) *facts.Result { return g.results[fn] }

// IsStart reports whether fn is one of the functions the search began at.
func (r *Reach) IsStart(fn FuncRef) bool {
	p, ok := r.prev[fn]
	return ok && !p.Func.Valid()
}

// UseGuard says which guards hold at one read of a self or parameter path.
type UseGuard struct {
	Use      UseRef
	Path     facts.Path // the path as the function spells it: "self.descs", "info.kind"
	NonEmpty bool       // the path is truthy (non-empty) on every path to the use
	NotNone  bool       // the path is not None on every path to the use
}

// UseGuards reports, for each read of a self or parameter path in fn that
// needs a guard (index, slice, iteration, unpacking, len, method call,
// plain read of an attribute path), whether a non-empty and a not-None
// fact hold there according to res (a result for fn, from Flow.Analyze or
// Guards.Result). Reads in unreachable code are left out.
func (fl *Flow) UseGuards(fn FuncRef, res *facts.Result) []UseGuard {
	if res == nil {
		return nil
	}
	ix := fl.ix
	s := ix.Files[fn.File].Summary
	f := ix.Func(fn)
	self, _ := ix.selfOf(fn.File, fn.Func)
	var out []UseGuard
	for _, ui := range ix.funcUses(fn) {
		u := &s.Uses[ui]
		if u.Kind != Read || u.Op == ReadArg {
			continue
		}
		root := self
		if !u.Self {
			if u.Param < 0 || int(u.Param) >= len(f.Params) {
				continue
			}
			root = f.Params[u.Param].Name
		}
		if root == "" {
			continue
		}
		p := facts.Path(root)
		if u.Path != "" {
			p += facts.Path("." + u.Path)
		}
		n := u.At.Node
		if !res.Reachable(n) {
			continue
		}
		out = append(out, UseGuard{
			Use:      UseRef{fn.File, ui},
			Path:     p,
			NonEmpty: res.Holds(n, facts.NonEmptyFact(p)),
			NotNone:  res.Holds(n, facts.NotNoneFact(p)),
		})
	}
	return out
}

// CheckHow is how a check stops the code after it from running when it
// fails.
type CheckHow uint8

const (
	CheckRaise    CheckHow = iota + 1 // if ...: raise
	CheckReturn                       // if ...: return
	CheckContinue                     // if ...: continue
	CheckBreak                        // if ...: break
	CheckAssert                       // assert ...
)

func (h CheckHow) String() string {
	return enumName([]string{"", "raise", "return", "continue", "break", "assert"}, int(h))
}

// Check is a guard in a function: an `if` whose body exits (and has no
// else), or an assert, after which Facts hold that did not before.
type Check struct {
	How   CheckHow
	Facts []facts.Fact // learnt by the check, in the function's names
	At    syntax.NodeID
	// Raise is the raise statement of a CheckRaise (its Type and Message
	// say what escapes), -1 otherwise.
	Raise int32
}

// Checks lists fn's checks, by comparing the facts before a guarding
// statement with those before the statement after it (res: a result for
// fn). Guards that are the last statement of their block are not listed.
func (fl *Flow) Checks(fn FuncRef, res *facts.Result) []Check {
	t := fl.tree(fn.File)
	if res == nil || t == nil {
		return nil
	}
	s := fl.ix.Files[fn.File].Summary
	f := fl.ix.Func(fn)
	if t.Kind(f.Def) != syntax.FunctionDefinition {
		return nil
	}
	var out []Check
	for n := range t.OwnScope(f.Def) {
		if k := t.Kind(n); k != syntax.IfStatement && k != syntax.AssertStatement {
			continue
		}
		c := Check{At: n, Raise: -1}
		before := n
		if t.Kind(n) == syntax.AssertStatement {
			c.How = CheckAssert
		} else {
			if t.Field(n, syntax.FAlternative) != syntax.NoNode {
				continue
			}
			cons := t.Field(n, syntax.FConsequence)
			last := syntax.NoNode
			if cons != syntax.NoNode {
				for st := range t.NamedChildren(cons) {
					last = st
				}
			}
			if last == syntax.NoNode {
				continue
			}
			switch t.Kind(last) {
			case syntax.RaiseStatement:
				c.How = CheckRaise
				c.Raise = raiseAt(s, last)
			case syntax.ReturnStatement:
				c.How = CheckReturn
			case syntax.ContinueStatement:
				c.How = CheckContinue
			case syntax.BreakStatement:
				c.How = CheckBreak
			default:
				continue
			}
			before = t.Field(n, syntax.FCondition)
			if before == syntax.NoNode {
				continue
			}
		}
		next := nextStatement(t, n)
		if next == syntax.NoNode || !res.Reachable(next) {
			continue
		}
		was := res.At(before)
		for _, x := range res.At(next) {
			if x.Kind.Local() {
				continue
			}
			if !containsFact(was, x) {
				c.Facts = append(c.Facts, x)
			}
		}
		if len(c.Facts) > 0 {
			sortFacts(c.Facts)
			out = append(out, c)
		}
	}
	return out
}

func containsFact(fs []facts.Fact, f facts.Fact) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

// nextStatement is the named, non-comment sibling after statement n.
func nextStatement(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for m := t.NextSibling(n); m != syntax.NoNode; m = t.NextSibling(m) {
		if t.IsNamed(m) && t.Kind(m) != syntax.Comment {
			return m
		}
	}
	return syntax.NoNode
}

// raiseAt finds the summary's raise at node n.
func raiseAt(s *Summary, n syntax.NodeID) int32 {
	for i := range s.Raises {
		if s.Raises[i].At.Node == n {
			return int32(i)
		}
	}
	return -1
}
