// Package readinessguard is SGL001 kv-send-without-readiness-guard
// (record 795554d942550d42): a send path uses a manager's registration
// state (a list filled when local KV buffers are registered) without
// checking that anything was registered.
//
// Part (a), an error, is reported at the use. Part (b), a warning, is
// reported at an outermost entry's call into a path that checks the state
// only by raising: see partb.go, written as a function over
// sendpath.Escapes so that it can move to the records rule (SGL010).
package readinessguard

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/internal/oncemap"
	"github.com/sglint/sglint/rules/namepattern"
	"github.com/sglint/sglint/rules/sendpath"
)

//go:embed doc.md
var doc string

// RecordID is the error record the rule derives from.
const RecordID = "795554d942550d42"

// Rule SGL001.
var Rule = &analyzer.Rule{
	ID:           "SGL001",
	Name:         "kv-send-without-readiness-guard",
	Severity:     analyzer.Error,
	Title:        "KV send path uses registration state without checking it is non-empty",
	Doc:          doc,
	Record:       RecordID,
	RecordFields: []string{"errorClass", "messagePattern", "typeGuard"},
	RecordUse:    "The record's raise (its class and message) is the deep check that SGL001 (b) finds on send paths; its typeGuard, a length test of the descriptor list, is the check SGL001 (a) asks for before every use of registration state.",
	Sections:     []*analyzer.Section{sendpath.Section},
	Demand:       sendpath.Demand,
	Options:      func() any { return DefaultOptions() },
	Run:          run,
}

// Options configure SGL001 ([tool.sglint.rules.SGL001]).
type Options struct {
	// Equivalent groups paths under self whose emptiness goes together: a
	// check on one member counts for all.
	Equivalent [][]string `toml:"equivalent"`
	// RegistrationCalls are the names (shell patterns) of the functions
	// that register local buffers: state must be filled by a function so
	// named, or by one that calls such a function on another object.
	RegistrationCalls []string `toml:"registration-calls"`
}

// DefaultOptions are the options when nothing is configured.
func DefaultOptions() *Options {
	return &Options{
		// One descriptor is registered per KV pointer, and the KV args hold
		// parallel lists: one pointer, length and item length per buffer.
		Equivalent: [][]string{
			{"self.kv_mem_descs", "self.kv_args.kv_data_ptrs"},
			{"self.kv_args.kv_data_ptrs", "self.kv_args.kv_data_lens", "self.kv_args.kv_item_lens"},
			{"self.kv_args.aux_data_ptrs", "self.kv_args.aux_data_lens", "self.kv_args.aux_item_lens"},
			{"self.kv_args.state_data_ptrs", "self.kv_args.state_data_lens", "self.kv_args.state_item_lens"},
		},
		RegistrationCalls: slices.Clone(DefaultRegistrationCalls),
	}
}

// Validate rejects patterns path.Match cannot read and group members that
// are not access paths under self.
func (o *Options) Validate() error {
	if _, err := namepattern.Compile(o.RegistrationCalls); err != nil {
		return fmt.Errorf("registration-calls: %v", err)
	}
	for _, g := range o.Equivalent {
		if len(g) < 2 {
			return fmt.Errorf("equivalent: a group needs at least two paths, got %q", g)
		}
		for _, m := range g {
			if !validSelfPath(m) {
				return fmt.Errorf("equivalent: %q is not an attribute path under self (like self.kv_args.kv_data_ptrs)", m)
			}
		}
	}
	return nil
}

func validSelfPath(s string) bool { return strings.HasPrefix(s, "self.") && pyname.IsDotted(s) }

// group returns the other members of statePath's equivalence groups, in
// the function's names (self renamed).
func (o *Options) group(statePath facts.Path, self string) []facts.Path {
	canon, ok := statePath.Rebase(facts.Path(self), "self")
	if !ok {
		return nil
	}
	var out []facts.Path
	for _, g := range o.Equivalent {
		if !slices.Contains(g, string(canon)) {
			continue
		}
		for _, m := range g {
			if m != string(canon) {
				p, _ := facts.Path(m).Rebase("self", facts.Path(self))
				out = append(out, p)
			}
		}
	}
	return out
}

func run(pass *analyzer.Pass) error {
	f := pass.File
	proj := pass.Project
	if proj == nil || proj.Index == nil || f.Model < 0 {
		return nil
	}
	opts := analyzer.OptionsOf(pass, DefaultOptions)
	paths := sendpath.Of(pass)
	ck := sharedChecker(paths, opts)
	for _, fn := range proj.Index.FuncsOf(f.Model) {
		ck.checkUses(pass, fn)
	}
	for _, d := range ck.partB() {
		if d.Path == f.Path {
			pass.Report(d)
		}
	}
	return nil
}

// checker holds what the rule learns about a project's classes, for one
// set of options: every file's pass and part (b), on their goroutines,
// share it (sharedChecker).
type checker struct {
	paths  *sendpath.Paths
	ix     *pymodel.Index
	opts   *Options
	states oncemap.Map[classAttr, stateMemo]
	regs   *registrations

	evidenceOnce sync.Once
	argsEv       argsEvidence // fields of the KV args tested for emptiness (kvargs.go)

	partBOnce  sync.Once
	partBDiags []analyzer.Diagnostic // the project's part (b) findings (partB)
}

type classAttr struct {
	c    pymodel.ClassRef
	attr string
}

type stateMemo struct {
	st state
	ok bool
}

// sharedChecker is the project's checker for opts: its memos (the
// registration states of class attributes, the functions that register)
// and its part (b) findings serve every file's pass.
func sharedChecker(paths *sendpath.Paths, opts *Options) *checker {
	key := checkerKey{paths, fmt.Sprintf("%q|%q", opts.Equivalent, opts.RegistrationCalls)}
	return paths.Project.Shared(key, func() any { return newChecker(paths, opts) }).(*checker)
}

// checkerKey tells checkers apart by the options their results depend on.
type checkerKey struct {
	paths *sendpath.Paths
	opts  string
}

func newChecker(paths *sendpath.Paths, opts *Options) *checker {
	return &checker{paths: paths, ix: paths.Index(), opts: opts,
		regs: newRegistrations(paths.Index(), opts.RegistrationCalls)}
}

func (ck *checker) state(c pymodel.ClassRef, attr string) (state, bool) {
	m := ck.states.Get(classAttr{c, attr}, func() stateMemo {
		st, ok := stateOf(ck.ix, c, attr, ck.regs)
		return stateMemo{st, ok}
	})
	return m.st, m.ok
}

// classOf is the class whose instance self denotes in fn.
func (ck *checker) classOf(fn pymodel.FuncRef) (pymodel.ClassRef, bool) {
	sc := ck.ix.Func(fn).SelfClass
	if sc < 0 {
		return pymodel.NoClass, false
	}
	return pymodel.ClassRef{File: fn.File, Class: sc}, true
}

// checkUses reports part (a) in fn: the first unguarded use of each
// registration state.
func (ck *checker) checkUses(pass *analyzer.Pass, fn pymodel.FuncRef) {
	ix := ck.ix
	if !ck.paths.OnPath(fn) || ix.Func(fn).Stub {
		return
	}
	r := ck.paths.Facts(fn)
	c, ok := ck.classOf(fn)
	if r == nil || !ok {
		return
	}
	self := sendpath.SelfName(ix, fn)
	t := pass.File.Tree()
	reported := map[facts.Path]bool{}
	def := ix.Func(fn).Def
	for _, u := range findUses(t, def, r, self, ck.lookup(fn, c, self)) {
		if reported[u.StatePath] {
			continue
		}
		group := ck.opts.group(u.StatePath, string(u.Owner))
		if guarded(r, u, group) ||
			u.Named != "" && halvedNameGuarded(t, def, r, u, u.Named, append([]facts.Path{u.Path, u.StatePath}, group...)) {
			continue
		}
		reported[u.StatePath] = true
		related := ck.paths.ChainRelated(fn)
		related = append(related, ck.stateRelated(u.State)...)
		pass.ReportNode(u.Node, ck.useMessage(fn, c, u, self), related...)
	}
}

// lookup is the stateLookup of function fn, whose self (named self) is an
// instance of c.
func (ck *checker) lookup(fn pymodel.FuncRef, c pymodel.ClassRef, self string) stateLookup {
	return func(p facts.Path) (state, facts.Path, bool) {
		rest, ok := strings.CutPrefix(string(p), self+".")
		if !ok || rest == "" || strings.ContainsRune(rest, '[') {
			return state{}, "", false
		}
		if !strings.ContainsRune(rest, '.') {
			st, ok := ck.state(c, rest)
			return st, facts.Path(self), ok
		}
		if owner, attr, ok := ck.ix.OwnerOf(fn, string(p)); ok {
			if st, ok := ck.state(owner, attr); ok {
				return st, p[:len(p)-len(attr)-1], true
			}
		}
		return ck.argsState(p, self, ck.paths.File(fn.File).Path)
	}
}

// stateRelated points at where the state starts empty and is filled.
func (ck *checker) stateRelated(st state) []analyzer.Related {
	var out []analyzer.Related
	add := func(u pymodel.UseRef, msg string) {
		if u.File < 0 {
			return
		}
		f := ck.paths.File(u.File)
		if f == nil {
			return
		}
		at := ck.ix.Use(u).At
		out = append(out, analyzer.Related{Path: f.Path, Line: int(at.Line), Column: int(at.Col), Message: msg})
	}
	start := "starts empty here"
	if st.Kind == noneYet {
		start = "starts as None here"
	}
	if st.Kind == fromArgs {
		return []analyzer.Related{st.Evidence}
	}
	add(st.Init, fmt.Sprintf("`self.%s` %s", st.Attr, start))
	add(st.Fill, fmt.Sprintf("`self.%s` is filled here (%s)", st.Attr, ck.funcOfUse(st.Fill)))
	return out
}

func (ck *checker) funcOfUse(u pymodel.UseRef) string {
	return ck.ix.Func(pymodel.FuncRef{File: u.File, Func: ck.ix.Use(u).Func}).QualName
}

func (ck *checker) useMessage(fn pymodel.FuncRef, c pymodel.ClassRef, u use, self string) string {
	var b strings.Builder
	name := "`" + string(u.StatePath) + "`"
	if u.Path != u.StatePath {
		name = fmt.Sprintf("`%s` (an alias of `%s`)", u.Path, u.StatePath)
	}
	if u.State.Kind == fromArgs {
		return argsMessage(name, u)
	}
	filler := ck.funcOfUse(u.State.Fill)
	if u.State.Kind == noneYet {
		fmt.Fprintf(&b, "%s may be None here (it is set only by `%s`); ", name, filler)
	} else {
		fmt.Fprintf(&b, "%s may be empty here (nothing registered on this rank: it is filled by `%s`); ", name, filler)
	}
	b.WriteString(consequence(u))
	fmt.Fprintf(&b, " (record %s). %s", RecordID, refuseToStart(filler, u.State.Attr, u.State.Kind == noneYet))
	return b.String()
}

// refuseToStart is SGL001's advice: a rank that registered nothing must
// not serve sends at all. Raising in the registration step (or the
// constructor that runs it) when the state is still empty makes it
// non-empty for every later method, which SGL001 accepts; skipping the
// send instead would move no KV and report success.
func refuseToStart(filler, attr string, none bool) string {
	empty := "is still empty"
	if none {
		empty = "is still None"
	}
	return fmt.Sprintf("Refuse to start when nothing is registered: raise in `%s` when `self.%s` %s, so that no send finds it unset", filler, attr, empty)
}

func consequence(u use) string {
	if u.State.Kind == noneYet {
		switch u.Kind {
		case useIter:
			return "iterating None raises TypeError in the send path"
		case useUnpack:
			return "unpacking None raises TypeError in the send path"
		}
		return "indexing None raises TypeError in the send path"
	}
	switch u.Kind {
	case useIndex:
		return "indexing it raises IndexError in the send path"
	case useSlice:
		return "slicing it gives zero layers, so the send moves no KV and still reports success"
	case useIter:
		return "the loop over it runs zero times, so the send moves no KV and still reports success"
	case useUnpack:
		return "unpacking it raises ValueError in the send path"
	case useDiv:
		return "dividing by its length raises ZeroDivisionError in the send path"
	case useHalve:
		return "its length divided down is zero layers, so the send moves no KV and still reports success"
	case useReturn:
		return "it is returned unchecked to the send path, where a loop over it runs zero times: the send moves no KV and still reports success"
	}
	return "the send path misbehaves"
}
