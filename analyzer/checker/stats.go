package checker

import (
	"maps"
	"time"

	"github.com/sglint/sglint/analyzer/syntax"
)

// Stats are the counts and timings of one run (sglint --stats). Wall times
// are per phase; busy times are summed over the workers of a phase, so with
// two workers they may add up to twice its wall time.
type Stats struct {
	Jobs    int
	Cache   bool // the run had a cache
	Files   int  // files loaded (reported on or context)
	Parsed  int  // files parsed by this run
	Spliced int  // of which reparsed from an earlier version's tree (syntax.ReparseSnapshot)
	Cached  int  // files whose summary and file-local results came from the cache
	// ProjectCached counts files whose findings of the rules that read the
	// project came from the cache (nothing in the project changed).
	ProjectCached int
	Bytes         int64 // source bytes read
	// Scanned counts the inputs pre-scanned by a demand-driven run (0 when
	// the run loaded every file); Rounds the times it linked the project
	// and asked the demands for more.
	Scanned int
	Rounds  int
	// SeedsPlanned: the run started over because a summary changed, and
	// took its seeds from the plan, whose pre-scans all held.
	SeedsPlanned bool
	// Plan says why a demand-driven run took the last run's selection
	// without pre-scanning (plan.go): "stamps" (no input changed on disk),
	// "contents" (inputs touched, none changed), "pre-scans and summaries"
	// (inputs changed, but not what the selection depends on); "" when it
	// pre-scanned.
	Plan    string
	Prescan time.Duration // pre-scanning sources (busy)
	Nodes   int64         // syntax nodes of the files parsed

	// Phase 1, per file: read, parse, summarise.
	LoadWall  time.Duration
	Read      time.Duration // reading files (busy)
	Parse     time.Duration // tree-sitter's parse (busy)
	Flatten   time.Duration // copying trees into Go memory (busy)
	Summarize time.Duration // project-model summaries (busy)
	Records   time.Duration // finding the records' raise sites (busy)
	Pack      time.Duration // packing the trees dropped after loading (busy)
	Hash      time.Duration // hashing sources for the cache (busy)
	CacheRead time.Duration // reading and decoding cache entries (busy)
	// Decode is the wall time spent decoding cached summaries (when the
	// project index is needed), part of IndexWall.
	Decode     time.Duration
	CacheWrite time.Duration // encoding and writing cache entries (busy)
	// Linking the summaries into the project index.
	IndexWall time.Duration
	// File-local rules and suppression comments run in phase 1 too.
	Rules map[string]time.Duration // busy time by rule ID, shared analyses included
	Noqa  time.Duration            // reading suppression comments (busy)
	// Phase 2, per file: the rules that need the project.
	CheckWall time.Duration
	Unpacked  int           // trees unpacked for rules (see Options.KeepTrees)
	Reparsed  int           // trees parsed again for rules
	Rebuild   time.Duration // time spent rebuilding them (busy, part of Rules)
	// Phase 3: suppressions, line texts, sorting.
	FinishWall time.Duration
}

// workerStats is what one worker measures; workers merge into Stats when
// their phase ends, so the hot path takes no lock.
type workerStats struct {
	read, summarize, records, noqa, pack time.Duration
	prescan                              time.Duration
	hash, cacheRead, cacheWrite          time.Duration
	cached                               int
	bytes                                int64
	buf                                  []byte // encoding space for the cache
	rules                                map[string]time.Duration
	parser                               syntax.Timing
}

func newWorkerStats() *workerStats { return &workerStats{rules: map[string]time.Duration{}} }

func (s *Stats) merge(w *workerStats) {
	s.Read += w.read
	s.Prescan += w.prescan
	s.Summarize += w.summarize
	s.Records += w.records
	s.Pack += w.pack
	s.Hash += w.hash
	s.CacheRead += w.cacheRead
	s.CacheWrite += w.cacheWrite
	s.Cached += w.cached
	s.Noqa += w.noqa
	s.Bytes += w.bytes
	s.Parse += w.parser.Parse
	s.Flatten += w.parser.Flatten
	s.Parsed += w.parser.Files
	s.Spliced += w.parser.Spliced
	s.Nodes += w.parser.Nodes
	if len(w.rules) > 0 && s.Rules == nil {
		s.Rules = map[string]time.Duration{}
	}
	for id, d := range w.rules {
		s.Rules[id] += d
	}
}

// RulesTotal is the busy time of all rules.
func (s *Stats) RulesTotal() time.Duration {
	var t time.Duration
	for d := range maps.Values(s.Rules) {
		t += d
	}
	return t
}
