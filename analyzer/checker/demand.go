package checker

import (
	"slices"
	"time"

	"github.com/sglint/sglint/analyzer"
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
// The files loaded depend only on the inputs' pre-scans and the loaded
// files' summaries, so a run where those are unchanged loads the set the
// last run loaded, without pre-scanning or linking rounds: the plan
// record (plan.go).

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

// loadSet runs phase 1 on the given inputs, none of them loaded yet.
func (r *runner) loadSet(set []int) {
	parallel(len(set), r.jobs, func(next <-chan int) {
		w := r.newWorker()
		defer w.close()
		for k := range next {
			r.load(w, set[k])
		}
	})
}

// loadSetDecoding is loadSet for a demand round, whose files are linked
// next: the summaries of cached files are decoded as they load, beside
// the others' loading, instead of after it.
func (r *runner) loadSetDecoding(set []int) {
	r.decodeEarly = true
	defer func() { r.decodeEarly = false }()
	r.loadSet(set)
}

// loadPlanned loads a plan's selection set, first the files of it whose
// content changed: they are parsed (the longest jobs), while the other
// workers take the rest from the cache. When a selected file changed, the
// project rules cannot reuse their findings, so the index will be needed:
// the cached files' summaries are decoded as they load, in the time the
// parse takes, instead of after it.
func (r *runner) loadPlanned(set, first []int) {
	if len(first) == 0 {
		r.loadSet(set)
		return
	}
	r.decodeEarly, r.changedFirst = true, true
	defer func() { r.decodeEarly, r.changedFirst = false, false }()
	r.loadSet(append(first, slices.DeleteFunc(slices.Clone(set), func(i int) bool { return slices.Contains(first, i) })...))
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

// settle decides which files the project rules must check (needProject:
// false when the cache has all their findings), decodes the summaries the
// index then needs, and writes the loaded files' models to the cache.
func (r *runner) settle() (need bool) {
	need = r.needProject()
	if need {
		r.decodeSummaries()
	}
	r.saveModelsLater()
	return need
}

// saveModelsLater is saveModels in the background: encoding the bundles
// (about 2 ms of an edit run) overlaps the linking and the rules, which
// read the files but not the bundles' unsaved records. Run waits for it
// (waitModels) before it writes the findings.
func (r *runner) saveModelsLater() {
	if r.cache == nil {
		return
	}
	done := make(chan time.Duration, 1)
	r.modelsSaved = done
	go func() {
		r.fileSaves.Wait()
		d := r.bundlesSaved(&r.cache.models, &r.cache.summaries, &r.cache.trees)
		r.cache.summaries.drop() // decoded: the raw records are not needed
		done <- d
	}()
}

// waitModels waits for saveModelsLater.
func (r *runner) waitModels() {
	if r.modelsSaved != nil {
		r.stats.CacheWrite += <-r.modelsSaved
		r.modelsSaved = nil
	}
}

// saveModels writes the per-file bundles of the cache now, so that phase 2
// does not hold them.
func (r *runner) saveModels() {
	r.saveModelsLater()
	r.waitModels()
}

// link builds the project index and the facts layer over the loaded files.
func (r *runner) link(project *analyzer.Project) *analyzer.Problem {
	var prob *analyzer.Problem
	project.Index, prob = buildIndexFrom(project.Files, r.lastIndex)
	r.lastIndex = project.Index
	project.LinkModel()
	project.Flow = newFlow(project)
	return prob
}

// scanned is what phase 0 knows of an input: its module, its content's
// hash and its pre-scan; ok false when it cannot be read.
type scanned struct {
	module  string
	pkg     bool
	hash    [32]byte
	unit    *prescan.File
	ok      bool
	stamp   fileStamp // the stamp the input was read or recorded under
	stamped bool
	unitSum [16]byte // unitDigest(unit); zero until taken
}

// scannedOf is what phase 0 knows of a file read and pre-scanned.
func scannedOf(f *file, unit *prescan.File) scanned {
	return scanned{module: f.Module, pkg: f.Package, hash: f.hash, unit: unit, ok: true}
}

// readAll is phase 0: know every input's content hash and pre-scan, in
// parallel. With a cache, an input whose stamp is the one recorded with its
// scan (and not racily close to it) is not read; the others are read,
// hashed, pre-scanned and recorded, and kept for loading.
func (r *runner) readAll(now int64) {
	parallel(len(r.inputs), r.jobs, func(next <-chan int) {
		ws := newWorkerStats()
		defer r.mergeStats(ws)
		for i := range next {
			in := r.inputs[i]
			var st fileStamp
			stamped := false
			if r.cache != nil && in.onDisk() {
				if st, stamped = stampOf(in.Abs, in.Info); stamped {
					if rec, ok := r.cache.loadScan(in.Abs, ws); ok && rec.Stamp == st && st.Older(rec.Written) {
						mod, pkg := moduleOf(r.root, in.Abs, in.Path)
						r.scans[i] = scanned{module: mod, pkg: pkg, hash: rec.Hash, unit: rec.Unit, ok: true, stamp: st, stamped: true,
							unitSum: rec.UnitSum}
						continue
					}
				}
			}
			f := r.pending[i] // read by a plan check that missed
			if f == nil {
				f = r.read(i, ws)
			}
			if f == nil {
				r.scans[i] = scanned{stamp: st, stamped: stamped} // not ok: unreadable
				continue
			}
			r.pending[i] = f
			var ps preScan
			if r.preScans != nil && r.preScans[i].hash == f.hash {
				ps = r.preScans[i] // the plan check's, of the same content
			}
			if ps.unit == nil {
				t0 := time.Now()
				ps.unit = prescan.Scan(f.Src())
				ws.prescan += time.Since(t0)
			}
			unit := ps.unit
			sc := scannedOf(f, unit)
			sc.stamp, sc.stamped = st, stamped
			if r.cache != nil && !r.keepScans { // for the plan (and the scan entry)
				if ps.sum == [16]byte{} {
					ps.sum = unitDigest(unit)
				}
				sc.unitSum = ps.sum
			}
			r.scans[i] = sc
			if stamped {
				r.cache.saveScan(in.Abs, &scanEntry{Stamp: st, Written: now, Hash: f.hash, Unit: unit, UnitSum: sc.unitSum})
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
// linking begins, for the stage times. replan is the plan of the last run
// when it looked valid but a loaded file's summary changed: the files
// loaded so far are cached, and the caller runs again without the plan's
// selection (Options.replan).
func (r *runner) loadOnDemand(demands []*analyzer.Demand, start *time.Time) (project *analyzer.Project, prob *analyzer.Problem, replan *planEntry) {
	began := time.Now().UnixNano()
	var set []int
	planned := false
	if r.cache != nil && !r.keepScans && r.opts.replan == nil {
		if plan := r.cache.readPlan(); plan != nil {
			var changed []int
			set, changed, planned = r.checkPlan(plan, began)
			if planned {
				// The changed files of the selection (the plan loaded them).
				first := slices.DeleteFunc(changed, func(i int) bool { return !plan.Files[i].loaded() })
				r.loadPlanned(set, first)
				if !r.sameSummaries(plan, first) {
					return nil, nil, plan
				}
			}
		}
	}
	var sc *analyzer.Scan
	if !planned { // a planned run needs no pre-scan: the plan is its result
		r.readAll(began)
		sc = r.prescan()
		if seeds, ok := r.plannedSeeds(r.opts.replan); ok {
			set = seeds
			r.stats.SeedsPlanned = true
		} else {
			set = r.seeds(sc, demands)
		}
		r.seeded = set
		r.loadSetDecoding(set)
	}
	r.stats.LoadWall = time.Since(*start)
	*start = time.Now()
	project = r.newProject()
	if planned {
		need := r.settle()
		r.dropPending(true)
		if !need {
			return project, nil, nil
		}
		return project, r.link(project), nil
	}
	for round := 1; ; round++ {
		// Each round's files decoded their summaries as they loaded
		// (loadSetDecoding).
		prob = r.link(project)
		r.stats.Rounds = round
		more := r.more(sc, demands, project)
		if len(more) == 0 || round == maxRounds {
			break
		}
		t0 := time.Now()
		r.loadSetDecoding(more)
		r.stats.LoadWall += time.Since(t0)
		project = r.newProject()
	}
	r.needProject()
	if r.cache != nil && !r.keepScans {
		r.cache.savePlan(r.newPlan(began))
	}
	r.saveModels()
	r.dropPending(false)
	if r.cache != nil {
		r.saveBundles(&r.cache.scans)
	}
	return project, prob, nil
}

// plannedSeeds are the seeds the plan p recorded, if every input's
// pre-scan is the one it recorded: the seeds are a function of the
// pre-scans alone (a run that starts over because a summary changed would
// compute them again, 7-13 ms on an sglang tree, for the same answer).
func (r *runner) plannedSeeds(p *planEntry) ([]int, bool) {
	if p == nil || len(p.Files) != len(r.inputs) {
		return nil, false
	}
	var set []int
	for i := range r.inputs {
		pf := &p.Files[i]
		if pf.ID != inputID(&r.inputs[i]) || r.scanDigestOf(i) != pf.Scan {
			return nil, false
		}
		if pf.seed() {
			set = append(set, i)
		}
	}
	return r.unloaded(set), true
}

// scanDigestOf is scanDigest of input i's pre-scan (zero when it could not
// be read, as the plan records it). With a cache, phase 0 took every
// pre-scan's digest (readAll), or read it with the pre-scan.
func (r *runner) scanDigestOf(i int) [16]byte {
	sc := &r.scans[i]
	if !sc.ok {
		return [16]byte{}
	}
	return scanDigest(sc.module, sc.pkg, sc.unitSum)
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
func (r *runner) dropPending(planned bool) {
	r.readOK = make([]bool, len(r.inputs))
	for i := range r.inputs {
		// Without phase 0 (the plan held), the inputs the plan's run
		// could read are those without a replayed problem.
		r.readOK[i] = r.files[i] != nil || !planned && r.scans[i].ok || planned && len(r.problems[i]) == 0
	}
	for i := range r.pending {
		r.pending[i] = nil
	}
	if !r.keepScans {
		r.scans = nil
	}
	syntax.ReleaseMemory()
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

func analyzerProblem(path string, p planProblem) analyzer.Problem {
	return analyzer.Problem{Path: path, Message: p.Message, Warning: p.Warning}
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

// scanEntry is an input's pre-scan, recorded with the stamp it was made
// under.
type scanEntry struct {
	Stamp   fileStamp
	Written int64 // unix nanoseconds
	Hash    [32]byte
	Unit    *prescan.File
	UnitSum [16]byte // unitDigest(Unit)
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
