package checker

import (
	"github.com/sglint/sglint/analyzer"
	"slices"
	"time"

	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/prescan"
	"github.com/sglint/sglint/analyzer/syntax"
)

// A demand-driven run (see Demand) loads only what its project rules read:
//
//  0. every input is read (and hashed, for the cache) and pre-scanned: no
//     parser, about 300 MB/s on one core;
//  1. the demands' seeds, the files named explicitly and standard input
//     are loaded (phase 1: parse, summary, file-local rules, or the cache);
//  2. the project is linked, the demands say which names their analyses
//     would follow into modules not loaded, those are loaded, and again,
//     until nothing new is asked (at most maxRounds rounds).
//
// The files loaded depend only on the contents of the inputs, so a run
// whose inputs are all unchanged (the tree key) loads the set the last run
// loaded, from the cache, without linking anything: the plan record.

// maxRounds bounds the rounds of step 2; each round loads at least one
// module, and call chains on KV send paths are a few calls deep.
const maxRounds = 16

// demands returns the distinct demands of the run's project rules; nil
// when the run loads every file: Options.Full, no project rule, or a
// project rule without a demand.
func (r *runner) demands() []*analyzer.Demand {
	if r.opts.Full || len(r.global) == 0 {
		return nil
	}
	var out []*analyzer.Demand
	for _, rule := range r.global {
		if rule.Demand == nil {
			return nil
		}
		if !slices.Contains(out, rule.Demand) {
			out = append(out, rule.Demand)
		}
	}
	return out
}

// loadAll runs phase 1 on every input.
func (r *runner) loadAll() {
	all := make([]int, len(r.inputs))
	for i := range all {
		all[i] = i
	}
	r.loadSet(all)
}

// loadSet runs phase 1 on the given inputs.
func (r *runner) loadSet(set []int) {
	n := len(set)
	parallel(n, r.jobs, func(next <-chan int) {
		w := r.newWorker()
		defer w.close()
		for k := range next {
			r.load(w, set[k])
		}
	})
}

// newProject collects the loaded files and their raise sites.
func (r *runner) newProject() *analyzer.Project {
	project := &analyzer.Project{Root: r.root, Records: r.opts.Records}
	for i, f := range r.files {
		if f != nil {
			project.Files = append(project.Files, f.File)
			for _, s := range r.sites[i] {
				project.RaiseSites = append(project.RaiseSites, analyzer.RaiseSite{File: f.File, Site: s})
			}
		}
	}
	r.stats.Files = len(project.Files)
	return project
}

// saveModels writes the per-file bundles of the cache now, so that phase 2
// does not hold them.
func (r *runner) saveModels() {
	if r.cache != nil {
		r.saveBundles(&r.cache.models, &r.cache.summaries, &r.cache.trees)
		r.cache.summaries.drop() // decoded: the raw records are not needed
	}
}

// link builds the project index and the facts layer over the loaded files.
func (r *runner) link(project *analyzer.Project) *analyzer.Problem {
	var prob *analyzer.Problem
	project.Index, prob = buildIndex(project.Files)
	project.LinkModel()
	project.Flow = newFlow(project)
	return prob
}

// scanned is what phase 0 knows of an input: its module, its content's
// hash and its pre-scan; ok false when it cannot be read.
type scanned struct {
	module string
	pkg    bool
	hash   [32]byte
	unit   *prescan.File
	ok     bool
}

// readAll is phase 0: know every input's content hash and pre-scan, in
// parallel. With a cache, an input whose stamp is the one recorded with its
// scan (and not racily close to it) is not read; the others are read,
// hashed, pre-scanned and recorded, and kept for loading.
func (r *runner) readAll() {
	now := time.Now().UnixNano()
	parallel(len(r.inputs), r.jobs, func(next <-chan int) {
		ws := newWorkerStats()
		defer r.mergeStats(ws)
		for i := range next {
			in := r.inputs[i]
			var st fileStamp
			stamped := false
			if r.cache != nil && in.Src == nil && in.Abs != "" {
				if st, stamped = stampOf(in.Abs, in.Info); stamped {
					if rec, ok := r.cache.loadScan(in.Abs, ws); ok && rec.Stamp == st && st.older(rec.Written) {
						mod, pkg := moduleOf(r.root, in.Abs, in.Path)
						r.scans[i] = scanned{module: mod, pkg: pkg, hash: rec.Hash, unit: rec.Unit, ok: true}
						continue
					}
				}
			}
			f := r.read(i, ws)
			if f == nil {
				continue
			}
			r.pending[i] = f
			t0 := time.Now()
			unit := prescan.Scan(f.Src())
			ws.prescan += time.Since(t0)
			r.scans[i] = scanned{module: f.Module, pkg: f.Package, hash: f.hash, unit: unit, ok: true}
			if stamped {
				r.cache.saveScan(in.Abs, &scanEntry{Stamp: st, Written: now, Hash: f.hash, Unit: unit})
			}
		}
	})
	r.stats.Scanned = len(r.inputs)
}

// prescan builds the demands' view of the inputs scanned.
func (r *runner) prescan() *analyzer.Scan { return r.newScan(r.scans) }

// newScan builds the demands' view of pre-scans: unit i is scans[i] (a
// unit that could not be read has no File).
func (r *runner) newScan(scans []scanned) *analyzer.Scan {
	units := make([]prescan.Unit, len(scans))
	for i, s := range scans {
		if s.ok {
			units[i] = prescan.Unit{Module: s.module, IsPackage: s.pkg, File: s.unit}
		}
	}
	return analyzer.NewScan(prescan.NewProject(units), r.sections, r.ruleOpts)
}

// loadOnDemand is steps 0 to 2; start is reset when loading ends and
// linking begins, for the stage times.
func (r *runner) loadOnDemand(demands []*analyzer.Demand, start *time.Time) (*analyzer.Project, *analyzer.Problem) {
	var set []int
	planned := false
	// The quickest way: nothing on disk changed since the plan was made.
	var stampKey cache.Key
	var newest int64
	stamped := false
	if r.cache != nil && !r.keepScans {
		stampKey, newest, stamped = r.stamps()
		if p := r.cache.readPlan(); stamped && p != nil && p.StampKey == stampKey &&
			p.Newest < p.Written-int64(racyWindow) {
			if set, planned = p.indexes(r.absIndex()); planned {
				r.replay(p.Problems)
				r.stats.Plan = "stamps"
			}
		}
	}
	var treeKey [32]byte
	keyed := false
	if !planned {
		r.readAll()
		treeKey, keyed = r.treeKey()
		if keyed && !r.keepScans {
			if set, planned = r.cache.loadPlan(treeKey, r.absIndex()); planned {
				r.stats.Plan = "contents"
			}
		}
	}
	var sc *analyzer.Scan
	if !planned { // a planned run needs no pre-scan: the plan is its result
		sc = r.prescan()
		set = r.seeds(sc, demands)
	}
	r.loadSet(set)
	r.stats.LoadWall = time.Since(*start)
	*start = time.Now()
	project := r.newProject()
	if planned {
		need := r.needProject(project)
		if need {
			r.decodeSummaries()
		}
		r.saveModels()
		r.dropPending()
		if !need {
			return project, nil
		}
		return project, r.link(project)
	}
	var prob *analyzer.Problem
	for round := 1; ; round++ {
		r.decodeSummaries()
		prob = r.link(project)
		r.stats.Rounds = round
		more := r.more(sc, demands, project)
		if len(more) == 0 || round == maxRounds {
			break
		}
		t0 := time.Now()
		r.loadSet(more)
		r.stats.LoadWall += time.Since(t0)
		project = r.newProject()
	}
	r.needProject(project)
	r.saveModels()
	r.dropPending()
	if r.cache != nil {
		r.saveBundles(&r.cache.scans)
	}
	if keyed {
		p := &planEntry{TreeKey: treeKey, Written: time.Now().UnixNano(), Loaded: r.loadedAbs(), Problems: r.readProblems()}
		if stamped {
			p.StampKey, p.Newest = stampKey, newest
		}
		r.cache.savePlan(p)
	}
	return project, prob
}

// seeds are the first inputs to load: the demands' seeds, and the inputs
// named explicitly (a user who names a file expects it checked).
func (r *runner) seeds(sc *analyzer.Scan, demands []*analyzer.Demand) []int {
	want := seedUnits(sc, demands)
	for i, in := range r.inputs {
		if in.Named {
			want = append(want, i)
		}
	}
	return r.unloaded(want)
}

// more maps the names the demands ask for to inputs read but not loaded.
func (r *runner) more(sc *analyzer.Scan, demands []*analyzer.Demand, project *analyzer.Project) []int {
	return r.unloaded(askedUnits(sc, demands, project))
}

// unloaded keeps the inputs read but not loaded, sorted, each once.
func (r *runner) unloaded(units []int) []int {
	units = slices.DeleteFunc(units, func(i int) bool { return !r.scans[i].ok || r.files[i] != nil })
	slices.Sort(units)
	return slices.Compact(units)
}

// seedUnits are the units the demands seed.
func seedUnits(sc *analyzer.Scan, demands []*analyzer.Demand) []int {
	var out []int
	for _, d := range demands {
		if d.Seeds == nil {
			continue
		}
		for _, i := range d.Seeds(sc) {
			if i >= 0 && i < sc.Len() {
				out = append(out, i)
			}
		}
	}
	return out
}

// askedUnits are the units of the names the demands would follow on
// project (names outside the project are dropped).
func askedUnits(sc *analyzer.Scan, demands []*analyzer.Demand, project *analyzer.Project) []int {
	var out []int
	for _, d := range demands {
		if d.More == nil {
			continue
		}
		for _, name := range d.More(sc, project) {
			if i, ok := sc.UnitOf(name); ok {
				out = append(out, i)
			}
		}
	}
	return out
}

// dropPending forgets the inputs that were read but not needed: their
// bytes are the bulk of a run's memory.
func (r *runner) dropPending() {
	r.readOK = make([]bool, len(r.inputs))
	for i := range r.inputs {
		// Without phase 0 (an unchanged tree), the inputs the plan's run
		// could read are those without a replayed problem.
		r.readOK[i] = r.files[i] != nil || r.stats.Scanned > 0 && r.scans[i].ok || r.stats.Scanned == 0 && len(r.problems[i]) == 0
	}
	for i := range r.pending {
		r.pending[i] = nil
	}
	if !r.keepScans {
		r.scans = nil
	}
	syntax.ReleaseMemory()
}

// treeKey identifies every input's path, module and content: equal keys,
// equal selections. false without a cache (no hashes) or with standard
// input.
func (r *runner) treeKey() ([32]byte, bool) {
	if r.cache == nil {
		return [32]byte{}, false
	}
	parts := [][]byte{[]byte("tree " + entryVersion), []byte(r.root)}
	for i, in := range r.inputs {
		if in.Src != nil {
			return [32]byte{}, false
		}
		sc := &r.scans[i]
		if !sc.ok {
			parts = append(parts, []byte(in.Abs), []byte{2}) // unreadable
			continue
		}
		flags := []byte{0, 0}
		if sc.pkg {
			flags[0] = 1
		}
		if in.Named {
			flags[1] = 1
		}
		parts = append(parts, []byte(in.Path), []byte(in.Abs), []byte(sc.module), flags, sc.hash[:])
	}
	return cache.NewKey(parts...), true
}

// readProblems lists the problems of the inputs that could not be read
// (kept in the plan: a run that skips reading shows them again).
func (r *runner) readProblems() []planProblem {
	var out []planProblem
	for i, in := range r.inputs {
		if r.files[i] != nil {
			continue
		}
		for _, p := range r.problems[i] {
			if !p.Internal {
				out = append(out, planProblem{Input: in.Abs, Message: p.Message, Warning: p.Warning})
			}
		}
	}
	return out
}

// replay records the reading problems of a plan, as the run that made it
// met them.
func (r *runner) replay(ps []planProblem) {
	byAbs := r.absIndex()
	for _, p := range ps {
		if i, ok := byAbs[p.Input]; ok {
			r.problems[i] = append(r.problems[i], analyzer.Problem{Path: r.inputs[i].Path, Message: p.Message, Warning: p.Warning})
		}
	}
}

// absIndex maps absolute paths to input indexes.
func (r *runner) absIndex() map[string]int {
	m := make(map[string]int, len(r.inputs))
	for i, in := range r.inputs {
		if in.Abs != "" {
			m[in.Abs] = i
		}
	}
	return m
}

// loadedAbs lists the absolute paths of the loaded inputs, in input order.
func (r *runner) loadedAbs() []string {
	var out []string
	for _, f := range r.files {
		if f != nil && f.Abs != "" {
			out = append(out, f.Abs)
		}
	}
	return out
}

// planEntry is the selection of the last demand-driven run under this
// configuration, for the tree it saw: its contents (TreeKey), and its
// files' stamps (StampKey, with Written for the racy check) so that an
// unchanged tree need not even be read; Problems are the reading problems
// of the files it did not load (a binary file's warning), shown again.
type planEntry struct {
	TreeKey  [32]byte
	StampKey [32]byte
	Written  int64 // unix nanoseconds
	Newest   int64 // the newest file time among the stamps
	Loaded   []string
	Problems []planProblem
}

type planProblem struct {
	Input   string // absolute path
	Message string
	Warning bool
}

func (rc *runCache) planKey() cache.Key {
	return cache.NewKey([]byte("plan "+entryVersion), []byte(rc.root), rc.config)
}

// readPlan returns the plan record, nil if there is none.
func (rc *runCache) readPlan() *planEntry {
	data := rc.store.Get(rc.planKey())
	var e planEntry
	if data == nil || cache.Unmarshal(data, &e) != nil {
		return nil
	}
	return &e
}

// loadPlan returns the inputs the last run loaded when it saw the same
// tree.
func (rc *runCache) loadPlan(treeKey [32]byte, byAbs map[string]int) ([]int, bool) {
	e := rc.readPlan()
	if e == nil || e.TreeKey != treeKey {
		return nil, false
	}
	return e.indexes(byAbs)
}

// indexes maps the plan's loaded files to input indexes.
func (e *planEntry) indexes(byAbs map[string]int) ([]int, bool) {
	out := make([]int, 0, len(e.Loaded))
	for _, abs := range e.Loaded {
		i, ok := byAbs[abs]
		if !ok {
			return nil, false
		}
		out = append(out, i)
	}
	slices.Sort(out)
	return out, true
}

func (rc *runCache) savePlan(e *planEntry) {
	if rc.readOnly {
		return
	}
	if out, err := cache.Marshal(nil, e); err == nil {
		_ = rc.store.Put(rc.planKey(), out)
	}
}

// scanEntry is an input's pre-scan, recorded with the stamp it was made
// under.
type scanEntry struct {
	Stamp   fileStamp
	Written int64 // unix nanoseconds
	Hash    [32]byte
	Unit    *prescan.File
}

func (rc *runCache) loadScan(abs string, ws *workerStats) (*scanEntry, bool) {
	b := rc.scans.getData(rc.store, abs, ws)
	if b == nil {
		return nil, false
	}
	var e scanEntry
	if cache.UnmarshalShared(b, &e) != nil || e.Unit == nil {
		return nil, false
	}
	return &e, true
}

func (rc *runCache) saveScan(abs string, e *scanEntry) {
	if rc.readOnly {
		return
	}
	if out, err := cache.Marshal(nil, e); err == nil {
		rc.scans.put(abs, out)
	}
}
