package checker

import (
	"bytes"
	"slices"
	"strings"
	"time"

	"github.com/sglint/sglint/analyzer/cache"
)

// The findings of the project rules depend on every loaded file (the
// project key), so they are valid or not all together: they are kept as
// one record, for the last project they were computed on, rather than one
// per file. An edit then writes one record, not one per cache shard that
// holds a reported file (file creation is most of a cache write).

// projectRecord is the project rules' findings on one project.
type projectRecord struct {
	Key   [32]byte
	Files []projectFile // by absolute path
}

// projectFile is one reported file's findings.
type projectFile struct {
	Abs   string
	Path  string // display path: findings carry it
	Diags []diagEntry
}

const projectFindingsRecord = "project findings"

// readProjectRecord reads the project findings record once per run: the
// run looks it up (needProject) and merges into it when it saves
// (saveProjectFindings). A record another run writes meanwhile is not
// seen; it would only add findings of this same project.
func (rc *runCache) readProjectRecord() *projectRecord {
	rc.projectOnce.Do(func() { rc.project = readRecord[projectRecord](rc, projectFindingsRecord) })
	return rc.project
}

// A record is one cache entry per project root and configuration (the
// plan, the project findings), named by its kind.

func (rc *runCache) recordKey(name string) cache.Key {
	return cache.NewKey([]byte(name+" "+entryVersion), []byte(rc.root), rc.config)
}

// readRecord decodes record name, nil when there is none or it does not
// decode. Its strings share the entry's bytes.
func readRecord[T any](rc *runCache, name string) *T {
	data := rc.store.Get(rc.recordKey(name))
	var e T
	if data == nil || cache.UnmarshalShared(data, &e) != nil {
		return nil
	}
	return &e
}

// saveRecord writes record name in the background (nothing when the
// cache is read-only).
func (rc *runCache) saveRecord(name string, v any) {
	if rc.readOnly {
		return
	}
	encodeScratch(v, func(b []byte) {
		rc.store.PutLater(rc.recordKey(name), bytes.Clone(b)) // exact size: held until written
	})
}

// loadProjectFindings returns the findings recorded for the project key,
// by absolute path; nil when the record is another project's.
func (rc *runCache) loadProjectFindings(key [32]byte) map[string]projectFile {
	e := rc.readProjectRecord()
	if e == nil || e.Key != key {
		return nil
	}
	out := make(map[string]projectFile, len(e.Files))
	for _, pf := range e.Files {
		out[pf.Abs] = pf
	}
	return out
}

// saveProjectFindings records the project rules' findings of this run's
// reported files when the rules ran on any (with those of files the
// record held for the same project and this run did not report). A file
// whose check hit an internal error is left out, so the error shows again.
func (r *runner) saveProjectFindings(indexOK bool) {
	if r.cache.readOnly || !indexOK || len(r.global) == 0 || !slices.Contains(r.projectRun, true) {
		return
	}
	t0 := time.Now()
	byAbs := map[string]projectFile{}
	if old := r.cache.readProjectRecord(); old != nil && old.Key == r.projectKey {
		for _, pf := range old.Files {
			byAbs[pf.Abs] = pf
		}
	}
	for i, f := range r.files {
		if f == nil || !f.Report || !r.inputs[i].onDisk() {
			continue
		}
		if hasInternal(r.problems[i]) {
			delete(byAbs, f.Abs)
			continue
		}
		byAbs[f.Abs] = projectFile{Abs: f.Abs, Path: f.Path, Diags: diagEntries(r.project[i])}
	}
	e := projectRecord{Key: r.projectKey}
	for _, pf := range byAbs {
		e.Files = append(e.Files, pf)
	}
	slices.SortFunc(e.Files, func(a, b projectFile) int { return strings.Compare(a.Abs, b.Abs) })
	r.cache.saveRecord(projectFindingsRecord, &e)
	r.stats.CacheWrite += time.Since(t0)
}
