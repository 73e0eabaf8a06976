package analyzer

import (
	"crypto/sha256"
	"encoding/json"
	"time"

	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/noqa"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
)

// What the cache keeps, and when it is reused.
//
// Two entries per file on disk (Abs), both checked against the SHA-256 of
// the file's content:
//
//   - the model entry, keyed by the path and the records: the file's
//     summary, suppression comments and records' raise sites. They depend
//     on the content alone (and the raise sites on the records).
//   - the findings entry, keyed by the path and the configuration (rule
//     selection, rule options, records): the findings of the file-local
//     rules, which depend on the content alone, and the findings of the
//     other rules with the project key they were computed under.
//
// The project key hashes the path, module and content hash of every file
// loaded. Rules other than file-local ones may read any file of the
// project: summaries through the index, trees through File.Tree, shared
// project-wide analyses. So when any file changes, is added or removed,
// their findings are computed again for every file reported on (the index
// is rebuilt from the cached summaries, and only the trees the rules ask
// for are rebuilt); file-local findings, summaries and suppressions of the
// unchanged files are reused. A file whose check hit an internal error is
// never cached, so the error shows again.
type runCache struct {
	store   *cache.Store
	config  []byte // hash of the rule selection, options and records
	records []byte // hash of the records
	rules   map[string]*Rule
}

const entryVersion = "1" // changes with the entry types below

type modelEntry struct {
	Content [32]byte
	Summary []byte // cache.Marshal of the *pymodel.Summary
	Noqa    []directiveEntry
	Sites   []siteEntry
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
}

type findingsEntry struct {
	Content    [32]byte
	Path       string // display path: findings carry it
	Module     string
	LocalOK    bool
	Local      []diagEntry
	ProjectOK  bool
	ProjectKey [32]byte
	Project    []diagEntry
}

type diagEntry struct {
	Rule       string
	Path       string
	Start, End syntax.Position
	Message    string
	Function   string
	Record     string
	Related    []Related
	Severity   int8 // -1: the rule's
}

// newRunCache prepares the keys of a run, or returns nil when the
// configuration cannot be hashed (an option type json cannot encode):
// such a run is not cached.
func newRunCache(store *cache.Store, rules []*Rule, ruleOpts map[*Rule]any, recs *records.Set) *runCache {
	if store == nil {
		return nil
	}
	rc := &runCache{store: store, rules: map[string]*Rule{}}
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
	}
	k := cache.NewKey(parts...)
	rc.config = k[:]
	return rc
}

func (rc *runCache) modelKey(abs string) cache.Key {
	return cache.NewKey([]byte("model "+entryVersion), []byte(abs), rc.records)
}

func (rc *runCache) findingsKey(abs string) cache.Key {
	return cache.NewKey([]byte("findings "+entryVersion), []byte(abs), rc.config)
}

// projectKey identifies the loaded project: every file's paths, module
// and content.
func projectKey(root string, files []*File) [32]byte {
	parts := [][]byte{[]byte("project " + entryVersion), []byte(root)}
	for _, f := range files {
		pkg := []byte{0}
		if f.pkg {
			pkg[0] = 1
		}
		parts = append(parts, []byte(f.Path), []byte(f.Abs), []byte(f.Module), pkg, f.hash[:])
	}
	return cache.NewKey(parts...)
}

// loadModel returns f's model entry if it matches f's content.
func (rc *runCache) loadModel(f *File, ws *workerStats) *modelEntry {
	t0 := time.Now()
	defer func() { ws.cacheRead += time.Since(t0) }()
	b := rc.store.Get(rc.modelKey(f.Abs))
	if b == nil {
		return nil
	}
	var e modelEntry
	if cache.Unmarshal(b, &e) != nil || e.Content != f.hash {
		return nil
	}
	return &e
}

// loadFindings returns f's findings entry if it matches f's content and
// display path.
func (rc *runCache) loadFindings(f *File, ws *workerStats) *findingsEntry {
	t0 := time.Now()
	defer func() { ws.cacheRead += time.Since(t0) }()
	b := rc.store.Get(rc.findingsKey(f.Abs))
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
	if _, ok := rc.diags(e.Project); !ok {
		return nil
	}
	return &e
}

// saveModel writes f's model entry; buf is the worker's scratch space.
func (rc *runCache) saveModel(f *File, set *noqa.Set, sites []records.Site, buf []byte, ws *workerStats) []byte {
	t0 := time.Now()
	defer func() { ws.cacheWrite += time.Since(t0) }()
	sum, err := cache.Marshal(buf[:0], f.Summary)
	if err != nil {
		return buf
	}
	e := modelEntry{Content: f.hash, Summary: sum}
	if set != nil {
		for _, d := range set.Directives {
			e.Noqa = append(e.Noqa, directiveEntry{Start: d.Start, End: d.End, Text: d.Text,
				FileLevel: d.FileLevel, Codes: d.Codes, Invalid: d.Invalid})
		}
	}
	for _, s := range sites {
		e.Sites = append(e.Sites, siteEntry{Record: s.Record.ID, Stmt: s.Stmt, Class: s.Class,
			Message: s.Message, Template: s.Template, Conds: s.Conds})
	}
	out, err := cache.Marshal(nil, &e)
	if err == nil {
		_ = rc.store.Put(rc.modelKey(f.Abs), out)
	}
	return sum
}

func (rc *runCache) saveFindings(f *File, e *findingsEntry, ws *workerStats) {
	t0 := time.Now()
	defer func() { ws.cacheWrite += time.Since(t0) }()
	if out, err := cache.Marshal(nil, e); err == nil {
		_ = rc.store.Put(rc.findingsKey(f.Abs), out)
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
			Template: s.Template, Conds: s.Conds})
	}
	return out, true
}

// summary decodes the entry's summary.
func (e *modelEntry) summary() (*pymodel.Summary, bool) {
	var s pymodel.Summary
	if cache.Unmarshal(e.Summary, &s) != nil {
		return nil, false
	}
	return &s, true
}

func diagEntries(ds []Diagnostic) []diagEntry {
	out := make([]diagEntry, len(ds))
	for i, d := range ds {
		sev := int8(-1)
		if d.overrides {
			sev = int8(d.severity)
		}
		out[i] = diagEntry{Rule: d.Rule.ID, Path: d.Path, Start: d.Start, End: d.End, Message: d.Message,
			Function: d.Function, Record: d.Record, Related: d.Related, Severity: sev}
	}
	return out
}

// diags maps entries back to diagnostics of the run's rules.
func (rc *runCache) diags(es []diagEntry) ([]Diagnostic, bool) {
	out := make([]Diagnostic, len(es))
	for i, e := range es {
		r := rc.rules[e.Rule]
		if r == nil || e.Severity < -1 || e.Severity > int8(Error) {
			return nil, false
		}
		d := Diagnostic{Rule: r, Path: e.Path, Start: e.Start, End: e.End, Message: e.Message,
			Function: e.Function, Record: e.Record, Related: e.Related}
		if e.Severity >= 0 {
			d.SetSeverity(Severity(e.Severity))
		}
		out[i] = d
	}
	return out, true
}
