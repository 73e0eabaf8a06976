package checker

import (
	"cmp"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/noqa"
	"github.com/sglint/sglint/analyzer/prescan"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Session keeps a project in memory between checks, for a long-lived
// client such as the language server. Its files are loaded once, as Run
// loads them (in parallel, from Options.Cache when it has them); then a
// file is replaced (Set) or dropped (Remove) as it changes, and Check runs
// the rules on the files asked for. The summaries are linked into the
// project index again only after a change, and the project's shared
// analyses live until then, so checking another file of an unchanged
// project costs only its rules.
//
// When every project rule has a demand (see analyzer.Demand), a session
// loads as a run does: every input is pre-scanned, and only what the
// demands select is parsed and modelled, plus the files with a text of
// their own (an editor's buffers), the files named and the files checked.
// After a change the selection is made again over the pre-scans, and grows
// to what it now asks for; it never shrinks, as a file loaded in excess
// changes no finding.
//
// A Session reads Options.Cache and never writes it (nor any other file).
// The trees of files loaded by Set stay in memory: they are the files
// being edited, which the rules read at every check. A Session is not
// safe for concurrent use: one goroutine drives it.
type Session struct {
	r      *runner // the options, rules, tree loader and cache of the first load
	slots  []*slot // sorted by path, so that the index does not depend on the order of changes
	byPath map[string]*slot
	parser *syntax.Parser
	z      pymodel.Summarizer

	project      *analyzer.Project // the linked project; nil once a file changed
	indexProblem *analyzer.Problem
	lastIndex    *pymodel.Index // the last index linked, whose per-file parts the next one reuses
	loadStats    *Stats

	demands []*analyzer.Demand // nil: every file is loaded
	scan    *analyzer.Scan     // the demands' view of the slots; nil once a slot changed
}

// slot is one file of a session.
type slot struct {
	in       Input
	file     *file // nil when it could not be loaded (problems say why)
	sites    []records.Site
	problems []analyzer.Problem // problems met loading it

	// What depends on the file's content alone, filled at its first check.
	checked       bool
	local         []analyzer.Diagnostic // findings of the file-local rules
	localProblems []analyzer.Problem
	directives    []*noqa.Directive // copied into a fresh set at each check

	// loaded: the file was loaded, or loading it was tried (file is nil
	// then). A slot not loaded has only its pre-scan (demand-driven).
	loaded bool
	pre    scanned
}

// NewSession loads inputs (by display path; the first of two inputs with
// the same path wins). Input.Report is ignored: Check says which files to
// report on.
func NewSession(inputs []Input, opts Options) *Session {
	ins := make([]Input, 0, len(inputs))
	seen := map[string]bool{}
	for _, in := range inputs {
		if !seen[in.Path] {
			seen[in.Path] = true
			in.Report = false
			ins = append(ins, in)
		}
	}
	slices.SortStableFunc(ins, func(a, b Input) int { return cmp.Compare(a.Path, b.Path) })
	r := newRunner(ins, opts)
	if r.cache != nil {
		r.cache.readOnly = true
	}
	demands := r.demands()
	start := time.Now()
	var project *analyzer.Project
	var indexProblem *analyzer.Problem
	if demands != nil {
		for i := range r.inputs {
			r.inputs[i].Named = r.inputs[i].Named || r.inputs[i].Src != nil
		}
		r.keepScans = true
		project, indexProblem, _ = r.loadOnDemand(demands, &start) // keepScans: no plan, never a replan
	} else {
		r.loadAll()
		syntax.ReleaseMemory()
		r.stats.LoadWall = time.Since(start)
		if len(r.global) > 0 {
			r.decodeSummaries()
		}
	}
	if r.cache != nil { // decoded: only the packed trees are read again
		r.cache.models.drop()
		r.cache.summaries.drop()
	}
	s := &Session{r: r, byPath: make(map[string]*slot, len(ins)), parser: syntax.NewParser(), loadStats: r.stats, demands: demands}
	for i, in := range r.inputs {
		sl := &slot{in: in, file: r.files[i], sites: r.sites[i], problems: r.problems[i]}
		sl.loaded = demands == nil || sl.file != nil || len(sl.problems) > 0
		if demands != nil {
			sl.pre = r.scans[i]
		}
		s.slots = append(s.slots, sl)
		s.byPath[in.Path] = sl
	}
	if project != nil {
		// linked by the selection's last round: the first check reuses it
		s.project, s.indexProblem, s.lastIndex = project, indexProblem, project.Index
	}
	s.loadStats.Files = s.Loaded()
	// The session owns the files now; the runner keeps its settings.
	r.inputs, r.files, r.problems, r.sites, r.sets, r.scans = nil, nil, nil, nil, nil, nil
	r.pending, r.localDiags, r.project, r.localRan, r.projectRun = nil, nil, nil, nil, nil
	return s
}

// Close frees the session's parsers.
func (s *Session) Close() {
	s.r.trees.close()
	s.parser.Close()
}

// LoadStats are the counts and timings of the first load.
func (s *Session) LoadStats() *Stats { return s.loadStats }

// LoadProblems are the problems met loading the files, in path order.
func (s *Session) LoadProblems() []analyzer.Problem {
	var out []analyzer.Problem
	for _, sl := range s.slots {
		out = append(out, sl.problems...)
	}
	return out
}

// Loaded is the number of files loaded (parsed and modelled, or served by
// the cache); a demand-driven session holds the others' pre-scans only.
func (s *Session) Loaded() int {
	n := 0
	for _, sl := range s.slots {
		if sl.file != nil {
			n++
		}
	}
	return n
}

// Paths are the display paths of the session's files, sorted.
func (s *Session) Paths() []string {
	out := make([]string, len(s.slots))
	for i, sl := range s.slots {
		out[i] = sl.in.Path
	}
	return out
}

// Has reports whether the session holds a file shown as path.
func (s *Session) Has(path string) bool { return s.byPath[path] != nil }

// Source is the source of the file shown as path as the rules see it
// (lone carriage returns read as line feeds), nil if it is not loaded.
func (s *Session) Source(path string) []byte {
	if sl := s.byPath[path]; sl != nil && sl.file != nil {
		return sl.file.Src()
	}
	return nil
}

// Set loads in as the content of the file shown as in.Path, replacing the
// one loaded or adding it; with in.Src nil it reads in.Abs. The file is
// parsed and summarised now; the index is linked again at the next Check.
// It returns the problems met loading it.
func (s *Session) Set(in Input) []analyzer.Problem {
	in.Report = false
	sl := &slot{in: in}
	old := s.byPath[in.Path]
	if s.demands == nil || in.Src != nil || in.Named || old != nil && old.loaded {
		var prev *file
		if old != nil {
			prev = old.file
		}
		s.loadOne(sl, prev)
	} else {
		s.preScan(sl) // loaded if the selection asks for it
	}
	s.scan = nil
	if old != nil {
		s.slots[slices.Index(s.slots, old)] = sl
	} else {
		i, _ := slices.BinarySearchFunc(s.slots, in.Path, func(x *slot, p string) int { return cmp.Compare(x.in.Path, p) })
		s.slots = slices.Insert(s.slots, i, sl)
	}
	s.byPath[in.Path] = sl
	s.project = nil
	return sl.problems
}

// loadOne reads, parses and summarises one file with the session's
// parser; prev, when not nil, is the file's last version, whose tree the
// parse reuses outside the statements that changed.
func (s *Session) loadOne(sl *slot, prev *file) {
	sl.loaded = true
	defer func() {
		if v := recover(); v != nil {
			sl.file, sl.sites = nil, nil
			s.parser = syntax.NewParser() // the old one may be half-way through a parse
			s.z = pymodel.Summarizer{}
			sl.problems = append(sl.problems, analyzer.Problem{Path: sl.in.Path, Internal: true,
				Message: fmt.Sprintf("panic: %v\n%s", v, debug.Stack())})
		}
	}()
	f, prob := s.r.readInput(sl.in, false, newWorkerStats())
	if prob != nil {
		sl.problems = append(sl.problems, *prob)
		return
	}
	var tree *syntax.Tree
	var err error
	if t := prevTree(prev); t != nil {
		tree, err = s.parser.Reparse(t, f.Src())
	} else {
		tree, err = s.parser.Parse(f.Src()) // parsing the old text first would only cost more
	}
	if err != nil {
		sl.problems = append(sl.problems, analyzer.Problem{Path: sl.in.Path, Message: err.Error()})
		return
	}
	f.SetTree(tree)
	if len(s.r.global) > 0 {
		summarize(&s.z, f, &sl.problems)
	}
	sl.sites = s.r.opts.Records.FindIn(tree, sitePath(f.File))
	sl.file = f
	if s.demands != nil {
		sl.pre = scannedOf(f, prescan.Scan(f.Src()))
	}
}

// prevTree is the tree of a file's last version to reparse from, when it
// is at hand (see file.treeAtHand); nil without one.
func prevTree(prev *file) *syntax.Tree {
	if prev == nil {
		return nil
	}
	return prev.treeAtHand()
}

// Remove drops the file shown as path, if the session holds it.
func (s *Session) Remove(path string) {
	sl := s.byPath[path]
	if sl == nil {
		return
	}
	delete(s.byPath, path)
	s.slots = slices.DeleteFunc(s.slots, func(x *slot) bool { return x == sl })
	s.project, s.scan = nil, nil
}

// Check runs the rules on the files shown as paths (paths the session
// does not hold are ignored), over the whole project as it is now, and
// returns what Run would return for them: findings after suppressions,
// sorted, the problems of those files (loading included) and of the
// index, their suppression comments with their usage, and this check's
// timings.
func (s *Session) Check(paths []string) *Result {
	r := s.r
	r.stats = &Stats{Jobs: r.jobs, Cache: r.cache != nil}
	start := time.Now()
	for _, p := range paths { // a file checked is loaded, as a file named is
		if sl := s.byPath[p]; sl != nil && !sl.loaded {
			s.loadOne(sl, nil)
			s.project = nil
		}
	}
	if s.project == nil {
		s.link()
	}
	r.stats.Files = len(s.project.Files)
	r.stats.IndexWall = time.Since(start)

	var asked []*slot
	for _, p := range paths {
		if sl := s.byPath[p]; sl != nil && !slices.Contains(asked, sl) {
			asked = append(asked, sl)
		}
	}
	slices.SortFunc(asked, func(a, b *slot) int { return cmp.Compare(a.in.Path, b.in.Path) })
	var check []*slot
	for _, sl := range asked {
		if sl.file != nil {
			check = append(check, sl)
		}
	}

	start = time.Now()
	unpacked, reparsed, rebuild := r.trees.unpacked.Load(), r.trees.reparse.Load(), r.trees.busy.Load()
	diags := make([][]analyzer.Diagnostic, len(check))
	problems := make([][]analyzer.Problem, len(check))
	sets := make([]*noqa.Set, len(check))
	parallel(len(check), r.jobs, func(next <-chan int) {
		ws := newWorkerStats()
		defer r.mergeStats(ws)
		for i := range next {
			s.checkSlot(check[i], ws, &diags[i], &problems[i], &sets[i])
		}
	})
	r.stats.CheckWall = time.Since(start)
	r.stats.Unpacked = int(r.trees.unpacked.Load() - unpacked)
	r.stats.Reparsed = int(r.trees.reparse.Load() - reparsed)
	r.stats.Rebuild = time.Duration(r.trees.busy.Load() - rebuild)

	start = time.Now()
	res := &Result{Files: len(check), Stats: r.stats, RaiseSites: s.project.RaiseSites, Noqa: sets}
	setOf := map[string]*noqa.Set{}
	for _, sl := range asked {
		res.Problems = append(res.Problems, sl.problems...)
	}
	var all []analyzer.Diagnostic
	for i, sl := range check {
		setOf[sl.in.Path] = sets[i]
		res.Problems = append(res.Problems, sl.localProblems...)
		res.Problems = append(res.Problems, problems[i]...)
		all = append(all, diags[i]...)
	}
	if s.indexProblem != nil {
		res.Problems = append(res.Problems, *s.indexProblem)
	}
	res.Diagnostics, res.Suppressed = settleDiagnostics(all, func(path string) (*analyzer.File, *noqa.Set) {
		var f *analyzer.File
		if sl := s.byPath[path]; sl != nil && sl.file != nil {
			f = sl.file.File
		}
		return f, setOf[path]
	})
	r.stats.FinishWall = time.Since(start)
	return res
}

// checkSlot runs every rule on one file. The file-local findings and the
// suppression comments depend on the content alone: they are computed at
// the file's first check and reused.
func (s *Session) checkSlot(sl *slot, ws *workerStats, diags *[]analyzer.Diagnostic, problems *[]analyzer.Problem, set **noqa.Set) {
	f := sl.file
	defer recoverInto(problems, f.Path)
	if !sl.checked {
		if ns := parseNoqa(f, &sl.localProblems); ns != nil {
			sl.directives = ns.Directives
		}
		sl.local = checkFile(f, nil, s.r.local, s.r.settings(), &sl.localProblems, ws)
		sl.checked = true
	}
	ds := make([]*noqa.Directive, len(sl.directives))
	for i, d := range sl.directives { // usage starts empty at each check
		ds[i] = d.Fresh()
	}
	*set = noqa.NewSet(f.Path, ds)
	*diags = append(slices.Clone(sl.local), checkFile(f, s.project, s.r.global, s.r.settings(), problems, ws)...)
}

// link builds the project of the files loaded now (after growing the
// selection, when demand-driven): the index of their summaries (when a
// rule reads the project) and their raise sites.
func (s *Session) link() {
	if s.demands != nil {
		s.grow()
		return
	}
	s.linkLoaded()
}

func (s *Session) linkLoaded() {
	p := &analyzer.Project{Root: s.r.root, Records: s.r.opts.Records}
	for _, sl := range s.slots {
		if sl.file == nil {
			continue
		}
		p.Files = append(p.Files, sl.file.File)
		for _, site := range sl.sites {
			p.RaiseSites = append(p.RaiseSites, analyzer.RaiseSite{File: sl.file.File, Site: site})
		}
	}
	s.indexProblem = nil
	if len(s.r.global) > 0 {
		p.Index, s.indexProblem = buildIndexFrom(p.Files, s.lastIndex)
		s.lastIndex = p.Index
		p.LinkModel()
		p.Flow = newFlow(p)
	}
	s.project = p
}
