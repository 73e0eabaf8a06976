package analyzer

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

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
}

// Problem is a file that could not be checked, or an internal error.
type Problem struct {
	Path     string
	Message  string
	Internal bool // a bug in sglint (a recovered panic), not bad input
	// Warning marks a file skipped on purpose (binary, too large): worth a
	// note, but not a failure of the run.
	Warning bool
}

func (p Problem) String() string {
	switch {
	case p.Internal:
		return fmt.Sprintf("%s: internal error: %s", p.Path, p.Message)
	case p.Warning:
		return fmt.Sprintf("%s: warning: %s", p.Path, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.Path, p.Message)
}

// DefaultMaxFileSize is the largest file checked unless Options says
// otherwise. Parse time and memory grow with the number of syntax nodes
// (about 3.5 µs and 100 bytes each): hand-written Python is far below this
// size, and a bigger .py file is generated data, not code to lint.
const DefaultMaxFileSize = 32 << 20

// Options configure a run.
type Options struct {
	Rules []*Rule // rules to run, already filtered by selection
	Jobs  int     // worker goroutines; <= 0 means the number of CPUs
	Root  string  // project root for module names; "" means discover.ProjectRoot of the inputs
	// RuleOptions holds configured options by rule ID, each a value of the
	// type the rule's Options hook returns. Rules absent here get defaults.
	RuleOptions map[string]any
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
}

// Result of a run. Diagnostics are sorted; Problems are in input order.
type Result struct {
	Diagnostics []Diagnostic // what is left after suppressions
	Problems    []Problem
	Files       int // files checked (reported on)
	Suppressed  int // findings dropped by noqa comments
	// Noqa holds the suppression comments of every checked file, in input
	// order, with the rules each one suppressed (for unused-noqa reports).
	Noqa []*noqa.Set
	// Stats are the run's counts and timings.
	Stats *Stats
	// RaiseSites are Project.RaiseSites: the records' raise sites in every
	// loaded file (File.Report tells the checked ones).
	RaiseSites []RaiseSite
}

// Run loads every input, then runs the rules on the files to report on.
//
// Phase 1 (a pool of opts.Jobs workers, one parser each) reads, parses and
// summarises every file, finds the records' raise sites, and on the files
// to report on runs the file-local rules (Rule.Local) and reads the
// suppression comments, while the tree is at hand. Then the summaries are
// linked into the project index. Phase 2 (the same pool) runs the other
// rules on the files to report on; they get trees through File.Tree.
// Phase 3 applies suppressions and sorts. Results land in per-input slots,
// so the outcome does not depend on scheduling.
func Run(inputs []Input, opts Options) *Result {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	maxSize := opts.MaxFileSize
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	files := make([]*File, len(inputs))
	problems := make([][]Problem, len(inputs))
	diags := make([][]Diagnostic, len(inputs))
	sets := make([]*noqa.Set, len(inputs))
	sites := make([][]records.Site, len(inputs))
	stats := &Stats{Jobs: jobs}
	var statsMu sync.Mutex
	mergeStats := func(w *workerStats) {
		statsMu.Lock()
		defer statsMu.Unlock()
		stats.merge(w)
	}
	local, global := splitRules(opts.Rules)
	ruleOpts := ruleOptions(opts.Rules, opts.RuleOptions)
	trees := &treeLoader{}
	defer trees.close()

	root := opts.Root
	if root == "" {
		root = rootOf(inputs)
	}

	start := time.Now()
	parallel(len(inputs), jobs, func(next <-chan int) {
		parser := syntax.NewParser()
		defer parser.Close()
		ws := newWorkerStats()
		defer mergeStats(ws)
		defer func() { ws.parser = parser.Timing }()
		var summarizer pymodel.Summarizer
		// scratch is the last dropped tree, whose memory the next parse
		// reuses: nothing refers to a tree once its file is done in phase 1.
		var scratch *syntax.Tree
		var packBuf []byte
		for i := range next {
			func() {
				defer recoverInto(&problems[i], inputs[i].Path)
				reuse := scratch
				scratch = nil // not reused after a panic
				f, prob := load(parser, reuse, inputs[i], maxSize, ws)
				if prob != nil {
					problems[i] = append(problems[i], *prob)
					return
				}
				f.trees = trees
				files[i] = f
				t0 := time.Now()
				summarize(&summarizer, f, root, &problems[i])
				t1 := time.Now()
				ws.summarize += t1.Sub(t0)
				sites[i] = opts.Records.Find(f.Tree())
				ws.records += time.Since(t1)
				if f.Report {
					diags[i] = checkFile(f, nil, local, ruleOpts, &problems[i], ws)
					t0 := time.Now()
					sets[i] = parseNoqa(f, &problems[i])
					ws.noqa += time.Since(t0)
				}
				if !opts.KeepTrees {
					t, t0 := f.tree.Load(), time.Now()
					packBuf = f.packTree(packBuf)
					ws.pack += time.Since(t0)
					scratch = t
				}
			}()
		}
	})
	syntax.ReleaseMemory() // few trees are parsed from here on
	stats.LoadWall = time.Since(start)

	start = time.Now()
	project := &Project{Root: root, Records: opts.Records}
	for i, f := range files {
		if f != nil {
			project.Files = append(project.Files, f)
			for _, s := range sites[i] {
				project.RaiseSites = append(project.RaiseSites, RaiseSite{File: f, Site: s})
			}
		}
	}
	stats.Files = len(project.Files)
	ix, indexProblem := buildIndex(project.Files)
	project.Index = ix
	project.Flow = newFlow(ix, project.Files)
	stats.IndexWall = time.Since(start)

	start = time.Now()
	reparsed, unpacked, rebuildBusy := trees.reparse.Load(), trees.unpacked.Load(), trees.busy.Load()
	checked := 0
	for _, f := range files {
		if f != nil && f.Report {
			checked++
		}
	}
	if len(global) > 0 {
		parallel(len(inputs), jobs, func(next <-chan int) {
			ws := newWorkerStats()
			defer mergeStats(ws)
			for i := range next {
				if f := files[i]; f != nil && f.Report {
					diags[i] = append(diags[i], checkFile(f, project, global, ruleOpts, &problems[i], ws)...)
				}
			}
		})
	}
	stats.CheckWall = time.Since(start)
	stats.Reparsed = int(trees.reparse.Load() - reparsed)
	stats.Unpacked = int(trees.unpacked.Load() - unpacked)
	stats.Rebuild = time.Duration(trees.busy.Load() - rebuildBusy)

	// Phase 3, sequential: a rule may report in another file than the one it
	// checks, so suppressions and line texts are looked up by path.
	start = time.Now()
	res := &Result{Files: checked, Stats: stats, RaiseSites: project.RaiseSites}
	byPath := map[string]int{}
	for i, f := range files {
		if f != nil {
			if _, dup := byPath[f.Path]; !dup {
				byPath[f.Path] = i
			}
		}
		if sets[i] != nil {
			res.Noqa = append(res.Noqa, sets[i])
		}
	}
	for i := range inputs {
		res.Problems = append(res.Problems, problems[i]...)
	}
	if indexProblem != nil {
		res.Problems = append(res.Problems, *indexProblem)
	}
	var all []Diagnostic
	for i := range inputs {
		all = append(all, diags[i]...)
	}
	SortDiagnostics(all) // suppression usage is then recorded in output order
	lines := lineIndex{}
	for _, d := range all {
		i, ok := byPath[d.Path]
		if ok {
			d.LineText = lines.text(files[i], d.Start.Line)
		}
		if ok && sets[i].Suppresses(d.Rule.ID, d.Start.Line) {
			res.Suppressed++
			continue
		}
		res.Diagnostics = append(res.Diagnostics, d)
	}
	stats.FinishWall = time.Since(start)
	return res
}

// splitRules separates the file-local rules, run while files load, from
// the rest, run once the project index exists.
func splitRules(rules []*Rule) (local, global []*Rule) {
	for _, r := range rules {
		if r.Local {
			local = append(local, r)
		} else {
			global = append(global, r)
		}
	}
	return local, global
}

// parseNoqa reads a file's suppression comments; a failure costs only the
// suppressions, and is reported as an internal error.
func parseNoqa(f *File, problems *[]Problem) (s *noqa.Set) {
	defer func() {
		if v := recover(); v != nil {
			s = nil
			*problems = append(*problems, Problem{Path: f.Path, Internal: true,
				Message: fmt.Sprintf("reading noqa comments panicked: %v\n%s", v, debug.Stack())})
		}
	}()
	s = noqa.Parse(f.Tree())
	s.Path = f.Path
	return s
}

// checkFile runs rules on one file (project is nil for file-local rules).
// A panicking rule loses only its own findings on that file; the problem
// names the rule and the file.
func checkFile(f *File, project *Project, rules []*Rule, ruleOpts map[*Rule]any, problems *[]Problem, ws *workerStats) []Diagnostic {
	state := &fileState{results: map[*Analysis]analysisResult{}, running: map[*Analysis]bool{}, stats: ws}
	for _, r := range rules {
		func() {
			t0 := time.Now()
			defer func() { ws.rules[r.ID] += time.Since(t0) }()
			before := len(state.diags)
			defer func() {
				if v := recover(); v != nil {
					state.diags = state.diags[:before]
					*problems = append(*problems, Problem{Path: f.Path, Internal: true,
						Message: fmt.Sprintf("rule %s panicked: %v\n%s", r.ID, v, debug.Stack())})
				}
			}()
			pass := &Pass{Rule: r, File: f, Project: project, state: state, options: ruleOpts[r]}
			if err := r.Run(pass); err != nil {
				*problems = append(*problems, Problem{Path: f.Path, Internal: true,
					Message: fmt.Sprintf("rule %s: %v", r.ID, err)})
			}
		}()
	}
	return state.diags
}

// ruleOptions resolves each rule's options once per run: the configured
// value, else the rule's defaults. Passes share the value read-only.
func ruleOptions(rules []*Rule, configured map[string]any) map[*Rule]any {
	m := map[*Rule]any{}
	for _, r := range rules {
		if v, ok := configured[r.ID]; ok {
			m[r] = v
		} else if r.Options != nil {
			m[r] = r.Options()
		}
	}
	return m
}

// parallel feeds the indexes [0, n) to jobs workers; each worker owns its
// per-worker state (a parser) for its whole life.
func parallel(n, jobs int, worker func(next <-chan int)) {
	jobs = max(1, min(jobs, n))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker(next)
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
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

// summarize fills f's summary and module name. A panic in the model costs
// the file its summary (an internal problem), not its rules.
func summarize(z *pymodel.Summarizer, f *File, root string, problems *[]Problem) {
	f.Model = -1
	path := f.Abs
	if path == "" {
		path = f.Path
	}
	f.Module, f.pkg = pymodel.ModuleName(root, path)
	defer func() {
		if v := recover(); v != nil {
			f.Summary = nil
			*z = pymodel.Summarizer{} // its buffers may be half-written
			*problems = append(*problems, Problem{Path: f.Path, Internal: true,
				Message: fmt.Sprintf("project model panicked: %v\n%s", v, debug.Stack())})
		}
	}()
	f.Summary = z.Summarize(f.Tree())
}

// buildIndex links the summaries of all loaded files, in input order (so
// the index does not depend on scheduling). If linking panics, the run
// goes on with an empty index and an internal problem.
func buildIndex(files []*File) (ix *pymodel.Index, prob *Problem) {
	var srcs []pymodel.SourceFile
	for _, f := range files {
		if f.Summary == nil {
			continue
		}
		f.Model = int32(len(srcs))
		srcs = append(srcs, pymodel.SourceFile{Path: f.Path, Module: f.Module, Package: f.pkg, Summary: f.Summary})
	}
	defer func() {
		if v := recover(); v != nil {
			for _, f := range files {
				f.Model = -1
			}
			ix = pymodel.NewIndex(nil)
			prob = &Problem{Path: "(project model)", Internal: true,
				Message: fmt.Sprintf("project index panicked: %v\n%s", v, debug.Stack())}
		}
	}()
	return pymodel.NewIndex(srcs), nil
}

// newFlow gives the facts layer the trees of the loaded files, parsed
// again on demand when they are not in memory.
func newFlow(ix *pymodel.Index, files []*File) *pymodel.Flow {
	byModel := make([]*File, len(ix.Files))
	for _, f := range files {
		if f.Model >= 0 && int(f.Model) < len(byModel) {
			byModel[f.Model] = f
		}
	}
	return pymodel.NewFlow(ix, func(fi int32) *syntax.Tree {
		if fi < 0 || int(fi) >= len(byModel) || byModel[fi] == nil {
			return nil
		}
		return byModel[fi].Tree()
	}, nil)
}
