package checker

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/noqa"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
)

// What the cache keeps, and when it is reused.
//
// Four bundles per project root, each in 32 cache entries by path (so a
// run reads and writes a few files, not a few per source file, and an
// edit rewrites a few small ones), holding one record per
// file on disk (by absolute path), each checked against the SHA-256 of the
// file's content:
//
//   - models (keyed by the records): each file's suppression comments and
//     records' raise sites, which depend on the content and the path (a
//     site's evidence compares it with the record's filePath) and on the
//     records;
//   - summaries: each file's project-model summary, read only when the
//     project index must be built;
//   - trees: each file's packed syntax tree (syntax.Pack), read only when
//     a rule asks for the tree of a file that was not parsed;
//   - findings (keyed by the configuration: rule selection, rule options,
//     records): the findings of the file-local rules, which depend on the
//     content alone.
//
// The findings of the other rules are one record (projectcache.go), for
// the project key they were computed under. The project key hashes the
// path, module and content hash of every file loaded. Rules other than
// file-local ones may read any file of the project: summaries through the
// index, trees through File.Tree, shared project-wide analyses. So when any
// file changes, is added or removed, their findings are computed again for
// every file reported on (the index is rebuilt from the cached summaries,
// and only the trees the rules ask for are rebuilt); file-local findings,
// summaries and suppressions of the unchanged files are reused. A file whose check hit an internal error is
// not cached, so the error shows again; standard input is not cached.
//
// A bundle's shard is rewritten whole, and only when this run changed one
// of its records; it keeps the records of files this run did not load
// while they exist (a run
// on a subdirectory does not evict the rest of the project). Concurrent
// runs each write whole bundles: the last one wins, the other's new records
// are lost, never mixed.
type runCache struct {
	store   *cache.Store
	root    string
	config  []byte // hash of the rule selection, options and records
	records []byte // hash of the records
	rules   map[string]*analyzer.Rule
	// readOnly: records are read, never buffered for writing (a store
	// opened read-only, or a Session).
	readOnly bool

	models, summaries, findings, trees bundleSet
	// scans holds each file's pre-scan with its stamp (demand.go).
	scans bundleSet

	projectOnce sync.Once
	project     *projectRecord // the project findings record (readProjectRecord)
}

const entryVersion = "5" // changes with the record types below

// bundleShards splits each bundle by path, so that a run that changes one
// file rewrites a 32nd of each bundle, not all of it (on the stdlib, a
// whole rewrite was 0.5 s of an edit run).
const bundleShards = 32

// bundleSet is one bundle, in shards: the records read, and those this
// run writes.
type bundleSet struct {
	key    cache.Key
	shards [bundleShards]bundleShard
}

type bundleShard struct {
	mu      sync.Mutex
	loaded  bool
	read    map[string]bundleEntry // by absolute path
	written map[string]bundleEntry
}

type bundle struct {
	Entries []bundleEntry
}

type bundleEntry struct {
	Abs string
	// Content is the hash of the file's content, for records whose data is
	// not an encoded struct that holds it (packed trees).
	Content [32]byte
	Data    []byte
}

// shardOf is FNV-1a of the path, inline: it runs for every record read or
// written, and hash/fnv allocates a hasher each time.
func shardOf(abs string) int {
	h := uint32(2166136261)
	for i := 0; i < len(abs); i++ {
		h = (h ^ uint32(abs[i])) * 16777619
	}
	return int(h % bundleShards)
}

func (b *bundleSet) shardKey(i int) cache.Key {
	return cache.NewKey(b.key[:], []byte{'#', byte(i)})
}

// loadLocked reads shard i once; its lock is held.
func (b *bundleSet) loadLocked(i int, store *cache.Store, ws *workerStats) *bundleShard {
	sh := &b.shards[i]
	if sh.loaded {
		return sh
	}
	sh.loaded = true
	t0 := time.Now()
	defer func() { ws.cacheRead += time.Since(t0) }()
	sh.read = map[string]bundleEntry{}
	data := store.Get(b.shardKey(i))
	var bd bundle
	// The records keep pointing into the entry read (one buffer per shard,
	// never modified): no second copy of every record.
	if data == nil || cache.UnmarshalShared(data, &bd) != nil {
		return sh
	}
	for _, e := range bd.Entries {
		if shardOf(e.Abs) == i { // a foreign record is ignored, never trusted
			sh.read[e.Abs] = e
		}
	}
	return sh
}

// get returns the record read for abs, reading its shard on first use.
func (b *bundleSet) get(store *cache.Store, abs string, ws *workerStats) (bundleEntry, bool) {
	i := shardOf(abs)
	b.shards[i].mu.Lock()
	defer b.shards[i].mu.Unlock()
	e, ok := b.loadLocked(i, store, ws).read[abs]
	return e, ok
}

// drop forgets the records read (decoded, they are not needed again).
func (b *bundleSet) drop() {
	for i := range b.shards {
		sh := &b.shards[i]
		sh.mu.Lock()
		if sh.loaded {
			sh.read = nil
		}
		sh.mu.Unlock()
	}
}

func (b *bundleSet) getData(store *cache.Store, abs string, ws *workerStats) []byte {
	e, _ := b.get(store, abs, ws)
	return e.Data
}

func (b *bundleSet) put(abs string, data []byte) { b.putEntry(bundleEntry{Abs: abs, Data: data}) }

func (b *bundleSet) putEntry(e bundleEntry) {
	sh := &b.shards[shardOf(e.Abs)]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.written == nil {
		sh.written = map[string]bundleEntry{}
	}
	sh.written[e.Abs] = e
}

// save writes the shards this run changed: the records written, and the
// records read for files that were not loaded but still exist.
func (b *bundleSet) save(store *cache.Store, loaded map[string]bool) time.Duration {
	t0 := time.Now()
	changed := false
	for i := range b.shards {
		if b.saveShard(i, store, loaded) {
			changed = true
		}
	}
	if !changed {
		return 0
	}
	return time.Since(t0)
}

func (b *bundleSet) saveShard(i int, store *cache.Store, loaded map[string]bool) bool {
	sh := &b.shards[i]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if len(sh.written) == 0 {
		return false
	}
	if sh.loaded && sh.read == nil { // dropped: read it again, to keep the unchanged records
		sh.loaded = false
	}
	b.loadLocked(i, store, newWorkerStats())
	var bd bundle
	for _, e := range sh.written {
		bd.Entries = append(bd.Entries, e)
	}
	for abs, e := range sh.read {
		if _, ok := sh.written[abs]; ok {
			continue
		}
		if !loaded[abs] {
			if _, err := os.Stat(abs); err != nil {
				continue // the file is gone
			}
		}
		bd.Entries = append(bd.Entries, e)
	}
	slices.SortFunc(bd.Entries, func(x, y bundleEntry) int { return strings.Compare(x.Abs, y.Abs) })
	size := 16
	for _, e := range bd.Entries {
		size += len(e.Abs) + len(e.Data) + 20
	}
	if out, err := cache.Marshal(make([]byte, 0, size), &bd); err == nil {
		store.PutLater(b.shardKey(i), out)
	}
	// This run's records stay readable (a rule may still ask for a tree).
	for abs, e := range sh.written {
		sh.read[abs] = e
	}
	sh.written = nil
	return true
}

type modelEntry struct {
	Content [32]byte
	Noqa    []directiveEntry
	Sites   []siteEntry
}

type summaryEntry struct {
	Content [32]byte
	Summary *pymodel.Summary
	Digest  [16]byte // summaryDigest(Summary): a plan needs it for every loaded file
}

type directiveEntry struct {
	Start, End syntax.Position
	Text       string
	FileLevel  bool
	Codes      []string
	Invalid    bool
}

type siteEntry struct {
	Record               string
	Stmt, Class, Message syntax.NodeID
	Template             records.Template
	Conds                []records.Cond
	Evidence             records.Evidence
}

type findingsEntry struct {
	Content [32]byte
	Path    string // display path: findings carry it
	Module  string
	Local   []diagEntry
}

type diagEntry struct {
	Rule       string
	Path       string
	Start, End syntax.Position
	Message    string
	Function   string
	Record     string
	Related    []analyzer.Related
	Severity   int8 // -1: the rule's
}

// newRunCache prepares the keys of a run, or returns nil when the
// configuration cannot be hashed (an option type json cannot encode):
// such a run is not cached.
func newRunCache(store *cache.Store, root string, rules []*analyzer.Rule, ruleOpts map[*analyzer.Rule]any, sections map[*analyzer.Section]any, recs *records.Set) *runCache {
	if store == nil {
		return nil
	}
	rc := &runCache{store: store, root: root, rules: map[string]*analyzer.Rule{}, readOnly: store.ReadOnly()}
	var recHash []byte
	if recs.Len() > 0 {
		b, err := json.Marshal(recs.Records)
		if err != nil {
			return nil
		}
		h := sha256.Sum256(b)
		recHash = h[:]
	}
	rc.records = recHash
	parts := [][]byte{[]byte("config " + entryVersion), recHash}
	for _, r := range rules {
		rc.rules[r.ID] = r
		opt, err := json.Marshal(ruleOpts[r])
		if err != nil {
			return nil
		}
		parts = append(parts, []byte(r.ID), opt)
		for _, sec := range r.Sections {
			so, err := json.Marshal(sections[sec])
			if err != nil {
				return nil
			}
			parts = append(parts, []byte(sec.Key), so)
		}
	}
	k := cache.NewKey(parts...)
	rc.config = k[:]
	rc.models.key = cache.NewKey([]byte("models "+entryVersion), []byte(root), rc.records)
	rc.summaries.key = cache.NewKey([]byte("summaries "+entryVersion), []byte(root))
	rc.findings.key = cache.NewKey([]byte("findings "+entryVersion), []byte(root), rc.config)
	rc.trees.key = cache.NewKey([]byte("trees "+entryVersion), []byte(root))
	rc.scans.key = cache.NewKey([]byte("scans "+entryVersion), []byte(root))
	return rc
}

// projectKey identifies the loaded project: every file's paths, module
// and content.
func projectKey(root string, files []*file) [32]byte {
	parts := [][]byte{[]byte("project " + entryVersion), []byte(root)}
	for _, f := range files {
		pkg := []byte{0}
		if f.Package {
			pkg[0] = 1
		}
		parts = append(parts, []byte(f.Path), []byte(f.Abs), []byte(f.Module), pkg, f.hash[:])
	}
	return cache.NewKey(parts...)
}

// loadModel returns f's model record if it matches f's content.
func (rc *runCache) loadModel(f *file, ws *workerStats) *modelEntry {
	b := rc.models.getData(rc.store, f.Abs, ws)
	if b == nil {
		return nil
	}
	var e modelEntry
	if cache.Unmarshal(b, &e) != nil || e.Content != f.hash {
		return nil
	}
	return &e
}

// loadSummary returns f's cached summary if it matches f's content.
func (rc *runCache) loadSummary(f *file, ws *workerStats) *pymodel.Summary {
	b := rc.summaries.getData(rc.store, f.Abs, ws)
	if b == nil {
		return nil
	}
	var e summaryEntry
	// The record's bytes are this summary's alone: its strings may share them.
	if cache.UnmarshalShared(b, &e) != nil || e.Content != f.hash || e.Summary == nil {
		return nil
	}
	f.sumDigest = e.Digest
	return e.Summary
}

// loadFindings returns f's findings record if it matches f's content and
// display path.
func (rc *runCache) loadFindings(f *file, ws *workerStats) *findingsEntry {
	b := rc.findings.getData(rc.store, f.Abs, ws)
	if b == nil {
		return nil
	}
	var e findingsEntry
	if cache.Unmarshal(b, &e) != nil || e.Content != f.hash || e.Path != f.Path || e.Module != f.Module {
		return nil
	}
	if _, ok := rc.diags(e.Local); !ok {
		return nil
	}
	return &e
}

// saveModel records f's model and summary.
func (rc *runCache) saveModel(f *file, set *noqa.Set, sites []records.Site, ws *workerStats) {
	if rc.readOnly {
		return
	}
	t0 := time.Now()
	defer func() { ws.cacheWrite += time.Since(t0) }()
	e := modelEntry{Content: f.hash}
	for _, d := range set.Directives {
		e.Noqa = append(e.Noqa, directiveEntry{Start: d.Start, End: d.End, Text: d.Text,
			FileLevel: d.FileLevel, Codes: d.Codes, Invalid: d.Invalid})
	}
	for _, s := range sites {
		e.Sites = append(e.Sites, siteEntry{Record: s.Record.ID, Stmt: s.Stmt, Class: s.Class,
			Message: s.Message, Template: s.Template, Conds: s.Conds, Evidence: s.Evidence})
	}
	model, err := cache.Marshal(ws.buf[:0], &e)
	if err != nil {
		return
	}
	model = bytes.Clone(model) // exact size: the bundle holds it until written
	sum, err := cache.Marshal(ws.buf[:0], &summaryEntry{Content: f.hash, Summary: f.Summary, Digest: f.summaryDigest()})
	ws.buf = sum[:0]
	if err != nil {
		return
	}
	rc.models.put(f.Abs, model)
	rc.summaries.put(f.Abs, bytes.Clone(sum))
}

// packedTree returns f's cached packed tree if it matches f's content.
func (rc *runCache) packedTree(f *file) []byte {
	ws := newWorkerStats() // not counted: part of the rules' time
	if e, ok := rc.trees.get(rc.store, f.Abs, ws); ok && e.Content == f.hash {
		if packed, err := syntax.SnapshotPacked(e.Data); err == nil {
			return packed
		}
	}
	return nil
}

// oldSnapshot returns the snapshot of an earlier version of f, from which
// its tree can be reparsed (syntax.ReparseSnapshot); nil if there is none.
func (rc *runCache) oldSnapshot(f *file, ws *workerStats) []byte {
	if e, ok := rc.trees.get(rc.store, f.Abs, ws); ok && e.Content != f.hash {
		return e.Data
	}
	return nil
}

// saveTree records f's tree, packed, as a snapshot of its version.
func (rc *runCache) saveTree(f *file, packed []byte) {
	if rc.readOnly {
		return
	}
	rc.trees.putEntry(bundleEntry{Abs: f.Abs, Content: f.hash, Data: syntax.Snapshot(packed, f.Src())})
}

func (rc *runCache) saveFindings(f *file, e *findingsEntry, ws *workerStats) {
	if rc.readOnly {
		return
	}
	t0 := time.Now()
	defer func() { ws.cacheWrite += time.Since(t0) }()
	if out, err := cache.Marshal(ws.buf[:0], e); err == nil {
		rc.findings.put(f.Abs, bytes.Clone(out))
		ws.buf = out[:0]
	}
}

func (e *modelEntry) noqaSet(path string) *noqa.Set {
	ds := make([]*noqa.Directive, len(e.Noqa))
	for i, d := range e.Noqa {
		ds[i] = &noqa.Directive{Start: d.Start, End: d.End, Text: d.Text, FileLevel: d.FileLevel, Codes: d.Codes, Invalid: d.Invalid}
	}
	return noqa.NewSet(path, ds)
}

// sites maps the entry's raise sites back to the run's records; ok is
// false if a record is missing (the records hash says it cannot be).
func (e *modelEntry) sites(recs *records.Set) ([]records.Site, bool) {
	var out []records.Site
	for _, s := range e.Sites {
		r := recs.Lookup(s.Record)
		if r == nil || r.ID != s.Record {
			return nil, false
		}
		out = append(out, records.Site{Record: r, Stmt: s.Stmt, Class: s.Class, Message: s.Message,
			Template: s.Template, Conds: s.Conds, Evidence: s.Evidence})
	}
	return out, true
}

func diagEntries(ds []analyzer.Diagnostic) []diagEntry {
	out := make([]diagEntry, len(ds))
	for i, d := range ds {
		sev := int8(-1)
		if s, ok := d.SeverityOverride(); ok {
			sev = int8(s)
		}
		out[i] = diagEntry{Rule: d.Rule.ID, Path: d.Path, Start: d.Start, End: d.End, Message: d.Message,
			Function: d.Function, Record: d.Record, Related: d.Related, Severity: sev}
	}
	return out
}

// diags maps entries back to diagnostics of the run's rules.
func (rc *runCache) diags(es []diagEntry) ([]analyzer.Diagnostic, bool) {
	out := make([]analyzer.Diagnostic, len(es))
	for i, e := range es {
		r := rc.rules[e.Rule]
		if r == nil || e.Severity < -1 || e.Severity > int8(analyzer.Error) {
			return nil, false
		}
		d := analyzer.Diagnostic{Rule: r, Path: e.Path, Start: e.Start, End: e.End, Message: e.Message,
			Function: e.Function, Record: e.Record, Related: e.Related}
		if e.Severity >= 0 {
			d.SetSeverity(analyzer.Severity(e.Severity))
		}
		out[i] = d
	}
	return out, true
}
