package checker

import (
	"crypto/sha256"
	"slices"
	"sync"

	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/prescan"
	"github.com/sglint/sglint/analyzer/pymodel"
)

// The plan: what the last demand-driven run under this configuration
// loaded, and what it was decided from.
//
// A run's selection is a function of every input's pre-scan (the seeds)
// and of the loaded files' summaries (each round asks the demands on the
// linked project; see analyzer.Demand). So the plan records, for every
// input, its stamp, content hash and a digest of its pre-scan, and for each
// loaded input a digest of its summary. A later run whose inputs are the
// same paths takes the plan's selection when:
//
//   - each input has its recorded stamp (and was not racily close to the
//     record, see fileStamp), or was read again and has its recorded
//     content, or a new content whose pre-scan has the recorded digest;
//   - and each loaded input whose content changed summarises to the
//     recorded digest (checked after loading it: if not, the run starts
//     over without the plan).
//
// Positions are left out of both digests: an edit inside a function of a
// KV file that shifts the lines after it (a comment, a log line, a changed
// condition) keeps both; an edit of a file outside the selection that keeps
// its class headers and imports skips the analysis altogether.

// planEntry is the plan record.
type planEntry struct {
	Written  int64 // unix nanoseconds: when the run that recorded it began
	Files    []planFile
	Problems []planProblem // reading problems of inputs not loaded, shown again
}

// planFile is one input as the plan's run saw it. It holds integers only,
// so a plan of thousands of inputs decodes as one copy (cache.Marshal).
type planFile struct {
	ID      uint64 // inputID: the input's paths and Named
	Flags   uint8  // planStamped, planLoaded
	Stamp   fileStamp
	Hash    [32]byte // content
	Scan    [16]byte // digest of module, package flag and pre-scan
	Summary [16]byte // loaded inputs: digest of the summary
}

const (
	planStamped = 1 << iota
	planLoaded
	planSeed // one of the run's seeds (see plannedSeeds)
)

func (pf *planFile) stamped() bool { return pf.Flags&planStamped != 0 }
func (pf *planFile) loaded() bool  { return pf.Flags&planLoaded != 0 }
func (pf *planFile) seed() bool    { return pf.Flags&planSeed != 0 }

// inputID is FNV-1a (64 bits) of an input's display path, absolute path
// and Named flag: the plan holds only for the same inputs in the same
// order.
func inputID(in *Input) uint64 {
	h := uint64(14695981039346656037)
	add := func(s string) {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
		h *= 1099511628211 // a zero byte after each string
	}
	add(in.Path)
	add(in.Abs)
	if in.Named {
		add("named")
	}
	return h
}

type planProblem struct {
	Input   string // absolute path
	Message string
	Warning bool
}

const planRecord = "plan"

// readPlan returns the plan record, nil if there is none.
func (rc *runCache) readPlan() *planEntry { return readRecord[planEntry](rc, planRecord) }

func (rc *runCache) savePlan(e *planEntry) { rc.saveRecord(planRecord, e) }

// scanDigest identifies what the demands read of an input: its module and
// pre-scan (which holds no line numbers: an edit that moves a class keeps
// the digest), given as unitDigest's.
func scanDigest(module string, pkg bool, unit [16]byte) [16]byte {
	flag := []byte{0}
	if pkg {
		flag[0] = 1
	}
	k := cache.NewKey([]byte(module), flag, unit[:])
	return [16]byte(k[:16])
}

// unitDigest identifies a pre-scan. It is kept with the pre-scan in the
// cache: a plan written after a run that pre-scanned every input (a change
// the plan did not survive) needs one per input, and marshalling 2,000
// pre-scans to hash them took 15 ms.
func unitDigest(unit *prescan.File) [16]byte { return digestOf(&unit) }

// summaryDigest identifies what the demands read of a loaded input's
// summary: its structure, not its positions (Summary.WithoutPositions).
func summaryDigest(s *pymodel.Summary) [16]byte {
	s = s.WithoutPositions()
	return digestOf(&s)
}

// digestOf is the first 16 bytes of the SHA-256 of *v's encoding; zero if
// it cannot be encoded (a miss: see checkPlan).
func digestOf[T any](v *T) [16]byte {
	var digest [16]byte
	encodeScratch(v, func(b []byte) {
		sum := sha256.Sum256(b)
		digest = [16]byte(sum[:16])
	})
	return digest
}

// encodeScratch encodes v (a pointer, as cache.Marshal takes it) into a
// pooled scratch buffer and hands the encoding to use, which must not keep
// it (a copy, to keep it); false if v cannot be encoded. A run digests a
// summary or a pre-scan per input it loads, and an encoding grown from
// nothing leaves two to three times its size behind.
func encodeScratch(v any, use func(b []byte)) bool {
	bp := encodeBufs.Get().(*[]byte)
	defer encodeBufs.Put(bp)
	b, err := cache.Marshal((*bp)[:0], v)
	*bp = b[:0]
	if err != nil {
		return false
	}
	use(b)
	return true
}

var encodeBufs = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// newPlan records the selection a full demand-driven run made (phase 0
// scanned every input).
func (r *runner) newPlan(began int64) *planEntry {
	p := &planEntry{Written: began, Files: make([]planFile, len(r.inputs)), Problems: r.readProblems()}
	for i, in := range r.inputs {
		sc := &r.scans[i]
		pf := planFile{ID: inputID(&in), Stamp: sc.stamp, Hash: sc.hash}
		if sc.stamped {
			pf.Flags |= planStamped
		}
		pf.Scan = r.scanDigestOf(i)
		if f := r.files[i]; f != nil {
			pf.Flags |= planLoaded
			pf.Summary = f.summaryDigest()
		}
		p.Files[i] = pf
	}
	for _, i := range r.seeded {
		p.Files[i].Flags |= planSeed
	}
	return p
}

// checkPlan decides whether the plan's selection holds for this run's
// inputs, reading those whose stamps changed (kept for loading). It
// returns the selection and the inputs whose content changed. On a miss
// nothing of what it did remains.
func (r *runner) checkPlan(p *planEntry, began int64) (set, changed []int, ok bool) {
	if len(p.Files) != len(r.inputs) {
		return nil, nil, false
	}
	// The inputs whose stamps differ, read again, with the stamp taken
	// before the read (kept for the next plan).
	type staleInput struct {
		i       int
		st      fileStamp
		stamped bool
	}
	var stale []staleInput
	for i, in := range r.inputs {
		pf := &p.Files[i]
		if !in.onDisk() || pf.ID != inputID(&in) {
			return nil, nil, false
		}
		st, stamped := stampOf(in.Abs, in.Info)
		if !stamped || !pf.stamped() || st != pf.Stamp || !st.Older(p.Written) {
			stale = append(stale, staleInput{i, st, stamped})
		}
	}
	miss := make([]bool, len(r.inputs))
	if len(stale) > 0 {
		r.preScans = make([]preScan, len(r.inputs))
		parallel(len(stale), r.jobs, func(next <-chan int) {
			ws := newWorkerStats()
			defer r.mergeStats(ws)
			for k := range next {
				i := stale[k].i
				pf := &p.Files[i]
				f := r.read(i, ws)
				r.pending[i] = f // nil if unreadable
				unreadable := pf.Scan == [16]byte{}
				switch {
				case f == nil && unreadable:
					// Unreadable then and now: its problem is fresh.
				case f == nil || unreadable:
					miss[i] = true
				case f.hash != pf.Hash:
					ps := preScan{unit: prescan.Scan(f.Src()), hash: f.hash}
					ps.sum = unitDigest(ps.unit)
					r.preScans[i] = ps
					miss[i] = scanDigest(f.Module, f.Package, ps.sum) != pf.Scan
				}
			}
		})
	}
	if slices.Contains(miss, true) {
		// Phase 0 takes the files read here (readAll), and reads again
		// those that could not be, to report their problem once.
		for _, s := range stale {
			if r.pending[s.i] == nil {
				r.problems[s.i] = nil
			}
		}
		return nil, nil, false
	}
	for i := range p.Files {
		if p.Files[i].loaded() {
			set = append(set, i)
		}
	}
	for _, s := range stale {
		if f := r.pending[s.i]; f != nil && f.hash != p.Files[s.i].Hash {
			changed = append(changed, s.i)
		}
	}
	if len(p.Problems) > 0 { // seldom: the index of every input is not free
		byAbs := r.absIndex()
		skip := map[int]bool{}
		for _, s := range stale {
			skip[s.i] = true
		}
		for _, pp := range p.Problems {
			if i, ok := byAbs[pp.Input]; ok && !skip[i] {
				r.problems[i] = append(r.problems[i], analyzerProblem(r.inputs[i].Path, pp))
			}
		}
	}
	r.stats.Plan = planHow(len(stale), len(changed))
	if len(stale) > 0 {
		// The stamps and contents seen now, for the next run.
		q := *p
		q.Written = began
		q.Files = slices.Clone(p.Files)
		for _, s := range stale {
			qf := &q.Files[s.i]
			qf.Stamp = s.st
			qf.Flags &^= planStamped
			if s.stamped {
				qf.Flags |= planStamped
			}
			if f := r.pending[s.i]; f != nil {
				qf.Hash = f.hash
			}
		}
		r.newPlanned = &q
	}
	return set, changed, true
}

// preScan is an input's pre-scan and its digest, taken once, of the
// content whose hash it keeps.
type preScan struct {
	unit *prescan.File // nil: none taken
	sum  [16]byte
	hash [32]byte
}

func planHow(stale, changed int) string {
	switch {
	case stale == 0:
		return "stamps"
	case changed == 0:
		return "contents"
	}
	return "pre-scans and summaries"
}

// sameSummaries reports whether the selection's inputs whose content
// changed (loaded by loadPlanned) summarise as recorded. If not, the files
// loaded are cached and the run must start over without the plan.
func (r *runner) sameSummaries(p *planEntry, changed []int) bool {
	for _, i := range changed {
		if !r.summaryIs(i, p.Files[i].Summary) {
			// The run that starts over takes the loaded files from the
			// cache: their models, and the file-local findings of those
			// parsed here (without those, it would parse them again).
			ws := newWorkerStats()
			for j, f := range r.files {
				if f != nil {
					r.save(j, ws)
				}
			}
			r.mergeStats(ws)
			r.saveModels()
			r.saveBundles(&r.cache.findings)
			return false
		}
	}
	r.savePlanned()
	return true
}

// summaryIs reports whether loaded input i summarises to digest want
// (loadPlanned decoded its summary if the cache served it).
func (r *runner) summaryIs(i int, want [16]byte) bool {
	f := r.files[i]
	return f != nil && f.summaryDigest() == want
}

// savePlanned records the plan with the stamps this run saw, when some
// differed.
func (r *runner) savePlanned() {
	if r.newPlanned != nil {
		r.cache.savePlan(r.newPlanned)
		r.newPlanned = nil
	}
}
