package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/internal/replay"
	"github.com/sglint/sglint/internal/stamp"
)

// replayer gives a check run's recorded output again when nothing it
// depended on changed (package replay), and records a run that may be
// given again. A run that reads standard input, writes files, prints its
// own timings, runs without the cache, or meets any problem is neither.
type replayer struct {
	store  *cache.Store // where the run is recorded (set once opened)
	key    cache.Key
	began  time.Time
	paths  []string // the paths as given
	opts   *checkOptions
	out    bytes.Buffer
	errOut bytes.Buffer

	// What the run depended on, noted as it goes.
	listings *discover.Listings
	set      *inputSet
	groups   *grouping
	problems bool
	prepared chan prepared // the stamps, noted in the background (prepare)

	// last is the record the replay check found no longer holding, and
	// rescan what its paths say now when only input files changed
	// (rescanned): the run takes that input set instead of walking.
	last   *replay.Record
	rescan *replay.Rescan
}

// prepared is a run's record without its output, and its input set.
type prepared struct {
	rec    *replay.Record
	inputs []byte
}

// replays counts the runs given again (tests read it).
var replays atomic.Int64

// newReplayer returns nil when the run cannot be replayed or recorded.
func newReplayer(args, paths []string, o *checkOptions, stdout, stderr io.Writer, began time.Time) *replayer {
	if !replay.Supported() || o.noCache || o.stats || o.addNoqa ||
		o.writeBaseline != "" || o.stdinFilename != "" || o.showFiles || o.outputFile != "" {
		return nil
	}
	for _, p := range paths {
		if p == "-" {
			return nil
		}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil
	}
	parts := [][]byte{[]byte("replay 1"), []byte(cwd), []byte(os.Getenv("SGLINT_CACHE_DIR"))}
	for _, w := range []io.Writer{stdout, stderr} {
		if isTerminal(w) {
			parts = append(parts, []byte("terminal"))
		} else {
			parts = append(parts, []byte("not a terminal"))
		}
	}
	for _, a := range args {
		parts = append(parts, []byte(a))
	}
	for _, e := range colorEnv() {
		parts = append(parts, []byte(e))
	}
	return &replayer{key: cache.NewKey(parts...), began: began, paths: paths, opts: o}
}

// replay writes the recorded output and returns its exit status, if the
// record in store still holds.
func (rp *replayer) replay(store *cache.Store, stdout, stderr io.Writer) (int, bool) {
	if store == nil {
		return 0, false
	}
	rec := replay.Decode(store.Get(rp.key))
	if rec == nil {
		return 0, false
	}
	if !rec.Holds() {
		rp.last = rec
		return 0, false
	}
	if _, err := stdout.Write(rec.Stdout); err != nil {
		return 0, false
	}
	_, _ = stderr.Write(rec.Stderr)
	replays.Add(1)
	return rec.Exit, true
}

// capture returns writers that also keep what the run prints.
func (rp *replayer) capture(stdout, stderr io.Writer) (io.Writer, io.Writer) {
	return io.MultiWriter(stdout, &rp.out), io.MultiWriter(stderr, &rp.errOut)
}

// prepare starts noting the stamps of what the run depends on, in the
// background while the run goes on, once discovery is done.
func (rp *replayer) prepare() {
	if rp.problems {
		return
	}
	rp.prepared = make(chan prepared, 1)
	go func() {
		var p prepared
		if p.rec = rp.stamps(); p.rec != nil {
			p.rec.EncodeStamps() // off the end of the run, which only appends the output
			p.inputs = p.rec.EncodeInputs(rp.set.root, rp.inputs())
		}
		rp.prepared <- p
	}()
}

// inputs is the run's input set, as the replay records keep it.
func (rp *replayer) inputs() []replay.Input {
	ins := make([]replay.Input, len(rp.set.inputs))
	for i, in := range rp.set.inputs {
		w, walked := rp.set.walked[in.Path]
		ins[i] = replay.Input{Path: in.Path, Abs: in.Abs, Report: in.Report, Named: in.Named, Walked: walked && w == i}
	}
	return ins
}

// inputsKey is where the input set of the run recorded under key is kept:
// apart from the record, which a run that changed nothing reads whole.
func inputsKey(key cache.Key) cache.Key { return cache.NewKey(key[:], []byte("inputs")) }

// rescanned returns the input set of the last run with today's stats,
// when the replay check found only input files changed (nil otherwise),
// with the settings lookups the walk would have made already made:
// resolver learns each directory the walk listed, and which settings
// files it holds, from the record, without a stat.
func (rp *replayer) rescanned(store *cache.Store, resolver *config.Resolver) *inputSet {
	if rp == nil || rp.last == nil || store == nil {
		return nil
	}
	rs, ok := rp.last.Rescan(store.Get(inputsKey(rp.key)))
	rp.last = nil
	if !ok {
		return nil
	}
	s := newInputSet(len(rs.Inputs))
	s.root = rs.Root
	for _, in := range rs.Inputs {
		if in.Walked {
			s.walked[in.Path] = len(s.inputs)
		}
		if in.Named {
			s.explicit[in.Path] = true
		}
		s.add(checker.Input{Path: in.Path, Abs: in.Abs, Report: in.Report, Named: in.Named, Info: in.Info})
	}
	for _, dir := range rs.Dirs { // parents first: a child's lookup climbs to them
		resolver.ForListedDir(dir, func(name string) bool { return rs.Has(dir, name) })
	}
	rp.rescan = rs
	rescans.Add(1)
	return s
}

// rescans counts the runs that took their input set from the last record
// (tests read it).
var rescans atomic.Int64

// save records the run, unless something it depended on is unknown.
func (rp *replayer) save(exit int) {
	if rp.prepared == nil {
		return
	}
	p := <-rp.prepared
	if exit == ExitError || rp.problems || p.rec == nil {
		return
	}
	p.rec.Exit = exit
	p.rec.Stdout, p.rec.Stderr = rp.out.Bytes(), rp.errOut.Bytes()
	rp.store.PutLater(rp.key, p.rec.Encode())
	if p.inputs != nil {
		rp.store.PutLater(inputsKey(rp.key), p.inputs)
	}
}

// stamps returns the record of what the run depends on, without its
// output; nil when a stamp cannot be known.
func (rp *replayer) stamps() *replay.Record {
	if rp.rescan != nil {
		return rp.rescan.Record(rp.began) // the same paths, today's stamps
	}
	rec := replay.New(rp.began)
	// The inputs, their directories and a few settings files and climbs.
	rec.Grow(len(rp.set.inputs) + len(rp.set.inputs)/4 + 64)
	cwd, err := os.Getwd()
	if err != nil {
		return nil
	}
	// The first stamp that cannot be known drops the record: stop there.
	ok := true
	addNow := func(path string) {
		ok = ok && rec.AddNow(path)
	}
	// The directories the walks listed, and the settings files among
	// their entries.
	settingsNames := []string{config.PyprojectName, config.StandaloneName, ".gitignore"}
	rp.listings.Walked(func(dir string, st discover.DirStamp, has func(string) bool) {
		rec.AddStamp(dir, st)
		for _, name := range settingsNames {
			if has(name) {
				addNow(filepath.Join(dir, name))
			}
		}
	})
	// The Python files, as the walk stat'ed them.
	for _, in := range rp.set.inputs {
		if in.Abs == "" || !rec.Add(in.Abs, in.Info) {
			return nil
		}
	}
	// The directories above the paths and the working directory: where the
	// project root, the configuration and the repository are looked for,
	// by name. Each name there is recorded, present or missing; the
	// directories' own times are not (a home directory or /tmp changes
	// all the time, for reasons that do not matter here). The climbs of
	// several paths meet: each directory is looked at once.
	tops := []string{cwd}
	for _, p := range rp.paths {
		tops = append(tops, absFrom(cwd, p))
	}
	// The names looked up there: the settings files, .gitignore, and the
	// project markers (.git apart: its kind matters, below).
	names := slices.Clone(settingsNames)
	for _, m := range discover.ProjectMarkers() {
		if m != ".git" && !slices.Contains(names, m) {
			names = append(names, m)
		}
	}
	climbed := map[string]bool{}
	for _, top := range tops {
		for d := top; ok && !climbed[d]; d = filepath.Dir(d) {
			climbed[d] = true
			for _, name := range names {
				addNow(filepath.Join(d, name))
			}
			git := filepath.Join(d, ".git")
			fi, err := os.Lstat(git)
			switch {
			case err == nil && fi.IsDir():
				rec.AddDir(git)
				addNow(filepath.Join(git, "info", "exclude"))
			case err == nil:
				return nil // a worktree or submodule: its exclude file lives elsewhere
			case stamp.Missing(err):
				rec.AddMissing(git) // as Holds reads it (stamp.Path)
			default:
				return nil // unreadable: not kept
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	// Named settings files, records and the baseline.
	named := []string{rp.opts.configFile, rp.opts.baseline}
	named = append(named, rp.opts.records...)
	for _, g := range rp.groups.groups {
		named = append(named, g.recPaths...)
	}
	for _, p := range named {
		if p == "" {
			continue
		}
		abs := absFrom(cwd, p)
		addNow(abs)
		if ents, err := os.ReadDir(abs); err == nil {
			for _, e := range ents {
				addNow(filepath.Join(abs, e.Name()))
			}
		}
	}
	if !ok || rec.Len() == 0 {
		return nil
	}
	return rec
}

func absFrom(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}
