package checker

import (
	"fmt"
	"io/fs"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/analyzer/noqa"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Input names one file to load.
type Input struct {
	Path   string // display path
	Abs    string // path to read; ignored when Src is set
	Src    []byte // contents already in hand (stdin), or nil to read Abs
	Report bool   // findings wanted (false: loaded only as context)
	// Named: the user named the file itself (not found by a walk), so it
	// is always loaded, even when no rule's demand asks for it.
	Named bool
	// Info, when set, is what file discovery learnt of Abs just before the
	// run (see discover.File.Info): a run that checks whether files changed
	// uses it instead of asking the file system again.
	Info fs.FileInfo
}

// onDisk: the input is read from its file (not a text in hand, such as
// standard input or an editor's buffer), so the cache may keep its results.
func (in *Input) onDisk() bool { return in.Src == nil && in.Abs != "" }

// DefaultMaxFileSize is the largest file checked unless Options says
// otherwise. Parse time and memory grow with the number of syntax nodes
// (about 3.5 µs and 100 bytes each): hand-written Python is far below this
// size, and a bigger .py file is generated data, not code to lint.
const DefaultMaxFileSize = 32 << 20

// Options configure a run.
type Options struct {
	Rules []*analyzer.Rule // rules to run, already filtered by selection
	Jobs  int              // worker goroutines; <= 0 means the number of CPUs
	Root  string           // project root for module names; "" means discover.ProjectRoot of the inputs
	// RuleOptions holds configured options by rule ID, each a value of the
	// type the rule's Options hook returns. Rules absent here get defaults.
	RuleOptions map[string]any
	// SectionOptions holds configured shared settings by Section.Key, each
	// a value of the type the section's Options hook returns. Sections
	// absent here get defaults.
	SectionOptions map[string]any
	// MaxFileSize skips larger files with a warning; 0 means
	// DefaultMaxFileSize.
	MaxFileSize int64
	// KeepTrees keeps every syntax tree in memory from loading to the end
	// of the run. By default a tree is dropped once the file is summarised
	// and its file-local rules ran, and File.Tree parses it again if a
	// project rule asks for it: rules read few trees besides the ones they
	// report on, and trees are the bulk of the memory (see README,
	// Performance).
	KeepTrees bool
	// Records are error records whose raise sites are found in every
	// loaded file while it is loaded (Project.RaiseSites).
	Records *records.Set
	// Cache keeps per-file results between runs; nil runs without. See
	// cached.go for what is kept and when it is reused.
	Cache *cache.Store
	// Full loads every file even when the project rules' demands would
	// load fewer (see Demand): for tools that need every file's model
	// (`sglint records`), and to check that demand-driven findings equal
	// the full analysis.
	Full bool

	// replan is the plan of the last run when it was tried and did not
	// hold (a loaded file's summary changed): select from the pre-scans,
	// starting from its seeds if every pre-scan is the one it recorded.
	replan *planEntry
	// preScans are the pre-scans that run's plan check took
	// (runner.preScans), for the run that starts over.
	preScans []preScan
}

// Result of a run. Diagnostics are sorted; Problems are in input order.
type Result struct {
	Diagnostics []analyzer.Diagnostic // what is left after suppressions
	Problems    []analyzer.Problem
	Files       int // files checked (reported on)
	// OnlyRead counts the files of Files that a demand-driven run read but
	// did not analyse: they hold nothing the project rules read, and
	// SGL000 does not report on them (--all-files analyses them).
	OnlyRead   int
	Suppressed int // findings dropped by noqa comments
	// Noqa holds the suppression comments of every checked file, in input
	// order, with the rules each one suppressed (for unused-noqa reports).
	Noqa []*noqa.Set
	// Stats are the run's counts and timings.
	Stats *Stats
	// RaiseSites are Project.RaiseSites: the records' raise sites in every
	// loaded file (File.Report tells the checked ones).
	RaiseSites []analyzer.RaiseSite
}

// IndexProblemPath is the path of a problem with the project index (not
// any one file's): a driver that groups problems by file keeps it apart.
const IndexProblemPath = "(project model)"

// Run loads every input, then runs the rules on the files to report on.
//
// Phase 1 (a pool of opts.Jobs workers, one parser each) reads every file
// and, unless the cache has its results, parses and summarises it, finds
// the records' raise sites, and on the files to report on runs the
// file-local rules (Rule.Local) and reads the suppression comments, while
// the tree is at hand; the tree is then packed away (Options.KeepTrees).
// Then the summaries are linked into the project index, and phase 2 (the
// same pool) runs the other rules on the files to report on, reading
// trees through File.Tree; both are skipped when the cache has all their
// findings. Phase 3 applies suppressions and sorts. Results land in
// per-input slots, so the outcome does not depend on scheduling.
func Run(inputs []Input, opts Options) *Result {
	r := newRunner(inputs, opts)
	defer r.trees.close()
	if opts.Cache != nil {
		defer opts.Cache.Wait() // the cache writes this run left in the background
	}

	start := time.Now()
	demands := r.demands()
	var project *analyzer.Project
	var indexProblem *analyzer.Problem
	if demands == nil {
		r.loadAll()
		syntax.ReleaseMemory() // few trees are parsed from here on
		r.stats.LoadWall = time.Since(start)
		start = time.Now()
		project = r.newProject()
		if need := r.settle(); need {
			indexProblem = r.link(project)
		}
	} else {
		var replan *planEntry
		project, indexProblem, replan = r.loadOnDemand(demands, &start)
		if replan != nil {
			// The files loaded so far are in the cache: the run that starts
			// over takes them from there.
			opts.replan, opts.preScans = replan, r.preScans
			return Run(inputs, opts)
		}
	}
	r.stats.IndexWall = time.Since(start)

	start = time.Now()
	reparsed, unpacked, rebuildBusy := r.trees.reparse.Load(), r.trees.unpacked.Load(), r.trees.busy.Load()
	parallel(len(inputs), r.jobs, func(next <-chan int) {
		ws := newWorkerStats()
		defer r.mergeStats(ws)
		for i := range next {
			f := r.files[i]
			if f == nil || !f.Report {
				continue
			}
			if r.projectRun[i] {
				r.project[i] = checkFile(f, project, r.global, r.settings(), &r.problems[i], ws)
			}
			r.save(i, ws)
		}
	})
	r.waitModels()
	if r.cache != nil {
		r.saveBundles(&r.cache.findings)
		r.saveProjectFindings(indexProblem == nil)
	}
	r.stats.CheckWall = time.Since(start)
	r.stats.Reparsed = int(r.trees.reparse.Load() - reparsed)
	r.stats.Unpacked = int(r.trees.unpacked.Load() - unpacked)
	r.stats.Rebuild = time.Duration(r.trees.busy.Load() - rebuildBusy)

	start = time.Now()
	res := r.finish(project, indexProblem)
	r.stats.FinishWall = time.Since(start)
	return res
}

// runner holds a run's per-input slots; workers write only their own
// inputs' slots.
type runner struct {
	inputs   []Input
	opts     Options
	jobs     int
	maxSize  int64
	root     string
	local    []*analyzer.Rule // file-local rules, run in phase 1
	global   []*analyzer.Rule // the others, run in phase 2
	ruleOpts map[*analyzer.Rule]any
	sections map[*analyzer.Section]any
	trees    *treeLoader
	cache    *runCache // nil: no cache
	// lastIndex is the index the last link built: a selection's next round
	// relinks the same files plus a few (buildIndexFrom).
	lastIndex *pymodel.Index

	files      []*file   // loaded (parsed or served by the cache)
	pending    []*file   // read and pre-scanned, not loaded (demand-driven runs)
	scans      []scanned // phase 0 of a demand-driven run
	keepScans  bool      // a Session's: every input pre-scanned, and the scans kept
	readOK     []bool    // a demand-driven run could read the input
	problems   [][]analyzer.Problem
	localDiags [][]analyzer.Diagnostic
	project    [][]analyzer.Diagnostic // findings of the global rules
	sets       []*noqa.Set
	sites      [][]records.Site
	localRan   []bool // file-local rules ran this run (not from the cache)
	projectRun []bool // the global rules must run (their findings are not cached)
	projectKey [32]byte
	newPlanned *planEntry // the plan held, with stamps to record (plan.go)
	seeded     []int      // the seeds a run that pre-scanned started from (a new plan keeps them)
	// preScans are the pre-scans a plan check took of the inputs it read
	// (nil when it read none): phase 0 reuses them, in this run or in the
	// one that starts over (Options.preScans).
	preScans []preScan
	// decodeEarly: a file served by the cache has its summary decoded as
	// it is loaded, while other workers load or parse (when the index will
	// be needed: see loadPlanned and loadOnDemand).
	decodeEarly bool
	// changedFirst: the run loads a plan's changed files first
	// (loadPlanned); those keep their trees (see load).
	changedFirst bool
	modelsSaved  chan time.Duration // saveModelsLater's, until waitModels
	// fileSaves are the cache records of changed files being encoded in
	// the background (load); the bundles are written after them.
	fileSaves sync.WaitGroup

	stats   *Stats
	statsMu sync.Mutex
}

func newRunner(inputs []Input, opts Options) *runner {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	maxSize := opts.MaxFileSize
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	root := opts.Root
	if root == "" {
		root = rootOf(inputs)
	}
	n := len(inputs)
	r := &runner{inputs: inputs, opts: opts, jobs: jobs, maxSize: maxSize, root: root,
		ruleOpts: ruleOptions(opts.Rules, opts.RuleOptions), sections: sectionOptions(opts.Rules, opts.SectionOptions),
		trees: &treeLoader{},
		files: make([]*file, n), pending: make([]*file, n), scans: make([]scanned, n), problems: make([][]analyzer.Problem, n), localDiags: make([][]analyzer.Diagnostic, n),
		project: make([][]analyzer.Diagnostic, n), sets: make([]*noqa.Set, n), sites: make([][]records.Site, n),
		localRan: make([]bool, n), projectRun: make([]bool, n), preScans: opts.preScans,
		stats: &Stats{Jobs: jobs}}
	r.local, r.global = splitRules(opts.Rules)
	r.cache = newRunCache(opts.Cache, root, opts.Rules, r.ruleOpts, r.sections, opts.Records)
	if r.cache != nil {
		r.trees.cached = r.cache.packedTree
		r.stats.Cache = true
	}
	return r
}

func (r *runner) mergeStats(w *workerStats) {
	r.statsMu.Lock()
	defer r.statsMu.Unlock()
	r.stats.merge(w)
}

// needProject decides which files the global rules must check: those to
// report on whose findings the cache does not have for this very project.
func (r *runner) needProject() bool {
	var cached map[string]projectFile
	if r.cache != nil {
		var loaded []*file // the project's files, in its order
		for _, f := range r.files {
			if f != nil {
				loaded = append(loaded, f)
			}
		}
		r.projectKey = projectKey(r.root, loaded)
		if len(r.global) > 0 {
			cached = r.cache.loadProjectFindings(r.projectKey)
		}
	}
	need := false
	for i, f := range r.files {
		if f == nil || !f.Report || len(r.global) == 0 {
			continue
		}
		if pf, ok := cached[f.Abs]; ok && pf.Path == f.Path && r.inputs[i].onDisk() {
			if ds, ok := r.cache.diags(pf.Diags); ok {
				r.project[i] = ds
				r.stats.ProjectCached++
				continue
			}
		}
		r.projectRun[i] = true
		need = true
	}
	return need
}

// decodeSummaries reads the summaries of the files that came from the
// cache, in parallel; a summary missing from the cache (another run
// rewrote it meanwhile) is computed again.
func (r *runner) decodeSummaries() {
	t0 := time.Now()
	parallel(len(r.files), r.jobs, func(next <-chan int) {
		var z pymodel.Summarizer
		ws := newWorkerStats()
		defer r.mergeStats(ws)
		for i := range next {
			f := r.files[i]
			if f != nil {
				r.decodeSummary(f, &r.problems[i], ws, &z)
			}
		}
	})
	r.stats.Decode += time.Since(t0)
}

// decodeSummary reads the summary of f if it came from the cache; one
// missing there (another run rewrote it meanwhile) is computed again.
func (r *runner) decodeSummary(f *file, probs *[]analyzer.Problem, ws *workerStats, z *pymodel.Summarizer) {
	if !f.summaryCached {
		return
	}
	if f.Summary = r.cache.loadSummary(f, ws); f.Summary == nil {
		summarize(z, f, probs)
	}
	f.summaryCached = false
}

// saveBundles writes the cache bundles this run changed.
func (r *runner) saveBundles(bs ...*bundleSet) {
	r.stats.CacheWrite += r.bundlesSaved(bs...)
}

// bundlesSaved writes the bundles and returns the time it took.
func (r *runner) bundlesSaved(bs ...*bundleSet) (d time.Duration) {
	loaded := map[string]bool{}
	for _, f := range r.files {
		if f != nil && f.Abs != "" {
			loaded[f.Abs] = true
		}
	}
	for _, b := range bs {
		d += b.save(r.cache.store, loaded)
	}
	return d
}

// save writes input i's file-local findings when this run computed them
// and nothing went wrong with the file (the project rules' findings are
// one record: saveProjectFindings).
func (r *runner) save(i int, ws *workerStats) {
	f := r.files[i]
	if r.cache == nil || !r.inputs[i].onDisk() || !r.localRan[i] || hasInternal(r.problems[i]) {
		return
	}
	e := &findingsEntry{Content: f.hash, Path: f.Path, Module: f.Module,
		Local: diagEntries(r.localDiags[i])}
	r.cache.saveFindings(f, e, ws)
}

// finish is phase 3, sequential: a rule may report in another file than
// the one it checks, so suppressions and line texts are looked up by path.
func (r *runner) finish(project *analyzer.Project, indexProblem *analyzer.Problem) *Result {
	// A demand-driven run checked every input it could read: the ones it
	// did not load hold nothing its rules read.
	checked, onlyRead := 0, 0
	for i, f := range r.files {
		switch {
		case f != nil && f.Report:
			checked++
		case f == nil && r.readOK != nil && r.readOK[i] && r.inputs[i].Report:
			checked++
			if in := r.inputs[i]; in.Info == nil || in.Info.Size() > 0 {
				onlyRead++ // an empty __init__.py holds nothing to analyse
			}
		}
	}
	res := &Result{Files: checked, OnlyRead: onlyRead, Stats: r.stats, RaiseSites: project.RaiseSites}
	byPath := map[string]int{}
	for i, f := range r.files {
		if f != nil {
			if _, dup := byPath[f.Path]; !dup {
				byPath[f.Path] = i
			}
		}
		if r.sets[i] != nil {
			res.Noqa = append(res.Noqa, r.sets[i])
		}
	}
	for i := range r.inputs {
		res.Problems = append(res.Problems, r.problems[i]...)
	}
	if indexProblem != nil {
		res.Problems = append(res.Problems, *indexProblem)
	}
	var all []analyzer.Diagnostic
	for i := range r.inputs {
		all = append(all, r.localDiags[i]...)
		all = append(all, r.project[i]...)
	}
	res.Diagnostics, res.Suppressed = settleDiagnostics(all, func(path string) (*analyzer.File, *noqa.Set) {
		if i, ok := byPath[path]; ok {
			return r.files[i].File, r.sets[i]
		}
		return nil, nil
	})
	return res
}

// settleDiagnostics is the end of a check: findings of one record kept
// once, sorted, with their line texts, and those the suppression comments
// cover dropped (counted). lookup gives the file a path names and its
// suppressions (nil when it was not loaded, or not checked: a finding in a
// file not checked is not suppressed, as callers report only on the files
// they asked for).
func settleDiagnostics(all []analyzer.Diagnostic, lookup func(path string) (*analyzer.File, *noqa.Set)) (kept []analyzer.Diagnostic, suppressed int) {
	all = dropRecordDuplicates(all)
	analyzer.SortDiagnostics(all) // suppression usage is then recorded in output order
	lines := lineIndex{}
	for _, d := range all {
		f, set := lookup(d.Path)
		if f != nil {
			d.LineText = lines.text(f, d.Start.Line)
		}
		if set.Suppresses(d.Rule.ID, d.Start.Line) {
			suppressed++
			continue
		}
		kept = append(kept, d)
	}
	return kept, suppressed
}

// dropRecordDuplicates removes a finding derived from a loaded error
// record (a rule without a record of its own that cites one: SGL010) when
// the rule written for that very record reports the same place: one
// failure, one finding, from the rule that explains it best.
func dropRecordDuplicates(ds []analyzer.Diagnostic) []analyzer.Diagnostic {
	type place struct {
		path, record string
		line, col    int
	}
	dedicated := map[place]bool{}
	for i := range ds {
		if d := &ds[i]; d.Record != "" && d.Rule.Record == d.Record {
			dedicated[place{d.Path, d.Record, d.Start.Line, d.Start.Column}] = true
		}
	}
	if len(dedicated) == 0 {
		return ds
	}
	out := ds[:0]
	for _, d := range ds {
		if d.Record != "" && d.Rule.Record == "" && dedicated[place{d.Path, d.Record, d.Start.Line, d.Start.Column}] {
			continue
		}
		out = append(out, d)
	}
	return out
}

func hasInternal(ps []analyzer.Problem) bool {
	for _, p := range ps {
		if p.Internal {
			return true
		}
	}
	return false
}

// splitRules separates the file-local rules, run while files load, from
// the rest, run once the project index exists.
func splitRules(rules []*analyzer.Rule) (local, global []*analyzer.Rule) {
	for _, r := range rules {
		if r.Local {
			local = append(local, r)
		} else {
			global = append(global, r)
		}
	}
	return local, global
}

// checkFile runs rules on one file (project is nil for file-local rules).
// A panicking rule loses only its own findings on that file; the problem
// names the rule and the file.
func checkFile(f *file, project *analyzer.Project, rules []*analyzer.Rule, set settings, problems *[]analyzer.Problem, ws *workerStats) []analyzer.Diagnostic {
	state := analyzer.NewFileState()
	for _, r := range rules {
		func() {
			t0 := time.Now()
			defer func() { ws.rules[r.ID] += time.Since(t0) }()
			before := len(state.Diagnostics())
			defer func() {
				if v := recover(); v != nil {
					state.Truncate(before)
					*problems = append(*problems, analyzer.Problem{Path: f.Path, Internal: true,
						Message: fmt.Sprintf("rule %s panicked: %v\n%s", r.ID, v, debug.Stack())})
				}
			}()
			pass := analyzer.NewPass(r, f.File, project, state, set.rules[r], set.sections)
			if err := r.Run(pass); err != nil {
				*problems = append(*problems, analyzer.Problem{Path: f.Path, Internal: true,
					Message: fmt.Sprintf("rule %s: %v", r.ID, err)})
			}
		}()
	}
	return state.Diagnostics()
}

// settings are the resolved options of a run's rules and sections.
type settings struct {
	rules    map[*analyzer.Rule]any
	sections map[*analyzer.Section]any
}

func (r *runner) settings() settings { return settings{r.ruleOpts, r.sections} }

// ruleOptions resolves each rule's options once per run: the configured
// value, else the rule's defaults. Passes share the value read-only.
func ruleOptions(rules []*analyzer.Rule, configured map[string]any) map[*analyzer.Rule]any {
	m := map[*analyzer.Rule]any{}
	for _, r := range rules {
		if v := r.OptionsIn(configured); v != nil {
			m[r] = v
		}
	}
	return m
}

// sectionOptions resolves the shared settings the rules read, once per
// run: the configured value, else the section's defaults.
func sectionOptions(rules []*analyzer.Rule, configured map[string]any) map[*analyzer.Section]any {
	m := map[*analyzer.Section]any{}
	for _, r := range rules {
		for _, s := range r.Sections {
			if _, done := m[s]; done {
				continue
			}
			if v := s.OptionsIn(configured); v != nil {
				m[s] = v
			}
		}
	}
	return m
}

// parallel feeds the indexes [0, n) to jobs workers; each worker owns its
// per-worker state (a parser) for its whole life.
func parallel(n, jobs int, worker func(next <-chan int)) {
	jobs = max(1, min(jobs, n))
	// The indexes are queued up front and this goroutine is one of the
	// workers: handing work to another goroutine costs a thread wakeup (up
	// to a millisecond on a busy VM), which an edit run's small pools (one
	// changed file in the plan check) paid on the critical path.
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range jobs - 1 {
		wg.Go(func() { worker(next) })
	}
	worker(next)
	wg.Wait()
}

// rootOf is the project root of the inputs read from disk.
func rootOf(inputs []Input) string {
	var paths []string
	for _, in := range inputs {
		if in.Abs != "" {
			paths = append(paths, in.Abs)
		} else if in.Path != "" {
			paths = append(paths, in.Path)
		}
	}
	if len(paths) == 0 {
		return ""
	}
	return discover.ProjectRoot(paths)
}

// moduleOf is f's module name and whether it is a package's __init__.
func moduleOf(root, abs, path string) (string, bool) {
	if abs == "" {
		abs = path
	}
	return pymodel.ModuleName(root, abs)
}

// buildIndexFrom links the summaries of all loaded files, in input order
// (so the index does not depend on scheduling), reusing what prev derived
// from the files that did not change (pymodel.NewIndexFrom); prev may be
// nil. If linking panics, the run goes on with an empty index and an
// internal problem.
func buildIndexFrom(files []*analyzer.File, prev *pymodel.Index) (ix *pymodel.Index, prob *analyzer.Problem) {
	var srcs []pymodel.SourceFile
	for _, f := range files {
		if f.Summary == nil {
			continue
		}
		f.Model = int32(len(srcs))
		srcs = append(srcs, pymodel.SourceFile{Path: f.Path, Module: f.Module, Package: f.Package, Summary: f.Summary})
	}
	defer func() {
		if v := recover(); v != nil {
			for _, f := range files {
				f.Model = -1
			}
			ix = pymodel.NewIndex(nil)
			prob = &analyzer.Problem{Path: IndexProblemPath, Internal: true,
				Message: fmt.Sprintf("project index panicked: %v\n%s", v, debug.Stack())}
		}
	}()
	return pymodel.NewIndexFrom(srcs, prev), nil
}

// newFlow gives the facts layer the trees of the loaded files, rebuilt
// on demand when they are not in memory.
func newFlow(p *analyzer.Project) *pymodel.Flow {
	return pymodel.NewFlow(p.Index, func(fi int32) *syntax.Tree {
		if f := p.ModelFile(fi); f != nil {
			return f.Tree()
		}
		return nil
	}, nil)
}
