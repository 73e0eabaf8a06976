package lsp

import (
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/rules/unusednoqa"
)

// workerState is what the worker goroutine alone reads and writes.
type workerState struct {
	projects  map[projectID]*project
	docProj   map[string]*project  // the project of each open document, by path
	published map[string]published // the last diagnostics sent, by path
	problems  map[string]string    // the last problems logged, by path (logged again only when they change)
	failed    map[projectID]bool   // settings that did not load, already shown
}

// published is what was last sent for a document.
type published struct {
	uri     string
	version int
	body    []byte // the diagnostics, encoded
}

func newWorkerState() *workerState {
	return &workerState{projects: map[projectID]*project{}, docProj: map[string]*project{},
		published: map[string]published{}, problems: map[string]string{}, failed: map[projectID]bool{}}
}

// work is the worker goroutine: it waits for changes, lets a burst of
// them settle (Options.Debounce after the last one, at most maxWait after
// the first), then brings the projects up to date and publishes. Changes
// that arrive during a pass wait for the next one.
func (s *Server) work(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		deadline := time.Now().Add(maxWait)
		for settled := false; !settled; {
			t := time.NewTimer(min(s.opts.Debounce, max(0, time.Until(deadline))))
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-s.wake:
				t.Stop()
				settled = !time.Now().Before(deadline)
			case <-t.C:
				settled = true
			}
		}
		s.pass()
	}
}

// pass applies the pending work and publishes what changed. A panic is
// logged and costs this pass only.
func (s *Server) pass() {
	defer func() {
		if v := recover(); v != nil {
			s.logf(MessageError, "internal error (a bug in sglint, please report it): %v\n%s", v, debug.Stack())
		}
	}()
	w := s.w
	start := time.Now()
	work, docs := s.snapshot()
	touched := map[*project]bool{}
	// A settings file other than the project's own, in or above its root,
	// may select files of the project (a nested file's excludes below it,
	// the root's for the directories a nested project file does not
	// govern): the project's walk reads it again. A change to the project's
	// own file is reloadSettings' to judge.
	var nested []*project
	for path := range work.settings {
		for _, p := range w.projects {
			if path != p.id.configFile && (p.under(path) || inDir(p.id.root, filepath.Dir(path))) && !slices.Contains(nested, p) {
				nested = append(nested, p)
			}
		}
	}
	if len(work.settings) > 0 {
		s.reloadSettings(docs, touched)
	}
	for path := range work.docs {
		d, open := docs[path]
		if !open {
			if p := w.docProj[path]; p != nil {
				p.release(path)
				delete(w.docProj, path)
				touched[p] = true
			}
			continue
		}
		p := s.projectOf(path, docs)
		if p == nil {
			continue
		}
		p.setBuffer(path, d.text)
		touched[p] = true
	}
	rediscover := map[*project]bool{} // once per project, however many files a checkout created
	for _, p := range nested {
		if w.projects[p.id] == p { // not loaded again by reloadSettings
			rediscover[p] = true
			touched[p] = true
		}
	}
	for path, typ := range work.disk {
		for _, p := range w.projects {
			if !p.under(path) {
				continue
			}
			if typ == FileChanged {
				p.diskChanged(path)
			} else {
				rediscover[p] = true
			}
			touched[p] = true
		}
	}
	for p := range rediscover {
		p.rediscover(s.walkOptions(p.st.cfg))
	}
	for path, uri := range work.closed {
		if _, open := docs[path]; !open {
			delete(w.published, path)
			s.notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: uri, Diagnostics: []Diagnostic{}})
		}
	}
	var index, rules time.Duration
	for _, p := range sortedProjects(touched) {
		if st := s.check(p, docs); st != nil {
			index += st.IndexWall
			rules += st.CheckWall
		}
	}
	if len(touched) > 0 { // for a user (or a benchmark) who wants to know where the time goes
		s.logf(MessageLog, "checked in %.1f ms (project index %.1f ms, rules %.1f ms)",
			ms(time.Since(start)), ms(index), ms(rules))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// projectOf returns the project of the open document at path, loading it
// the first time (with the default settings, and the error shown once, if
// its settings do not load); nil if the settings file cannot even be
// found (a pyproject.toml on the way that is not TOML).
func (s *Server) projectOf(path string, docs map[string]document) *project {
	w := s.w
	if p := w.docProj[path]; p != nil {
		return p
	}
	id, err := locate(path)
	if err != nil {
		s.showf(MessageError, "sglint: finding the settings of %s: %v", path, err)
		return nil
	}
	p := w.projects[id]
	if p == nil {
		st, err := s.loadSettings(id)
		if err != nil {
			if !w.failed[id] {
				w.failed[id] = true
				s.showf(MessageError, "%s", describe(id, err, "using the default settings until the file is fixed"))
			}
			st = &settings{cfg: config.Default(id.root)}
			st.selected, _ = analyzer.SelectLayers(s.opts.Rules, st.cfg.Selection)
		}
		p = s.openProject(id, path, st, docs)
		w.projects[id] = p
	}
	w.docProj[path] = p
	return p
}

// reloadSettings reads every project's settings again: a project whose
// settings (or settings file) changed is dropped, and its open documents
// are loaded again into their project; one whose settings no longer load
// keeps the previous ones. An open document that a settings file created
// or removed puts in another project (its nearest settings file is no
// longer its project's) moves to that project.
func (s *Server) reloadSettings(docs map[string]document, touched map[*project]bool) {
	w := s.w
	movedOut := map[*project]bool{}
	stayed := map[string]bool{} // open documents located in their project
	for path, p := range w.docProj {
		id, err := locate(path)
		switch {
		case err != nil:
		case id == p.id:
			stayed[path] = true
		default:
			p.release(path)
			delete(w.docProj, path)
			touched[p], movedOut[p] = true, true
		}
	}
	for id, p := range w.projects {
		// The project is located again from a document still in it: its
		// anchor may have moved out, which says nothing of its settings.
		if a := p.openAnchor(w.docProj); a != "" {
			p.anchor = a
		} else if movedOut[p] {
			p.session.Close() // every document it checked is elsewhere now
			delete(w.projects, id)
			continue
		}
		newID, err := id, error(nil)
		if !stayed[p.anchor] { // a closed document's path: not located above
			newID, err = locate(p.anchor)
		}
		var st *settings
		if err == nil {
			st, err = s.loadSettings(newID)
		}
		if err != nil {
			s.showf(MessageError, "%s", describe(id, err, "keeping the previous settings"))
			continue
		}
		delete(w.failed, newID)
		if newID == id && st.same(p.st) {
			continue
		}
		s.logf(MessageInfo, "settings of %s changed: loading the project again", id)
		p.session.Close()
		delete(w.projects, id)
		for path, dp := range w.docProj {
			if dp == p {
				delete(w.docProj, path)
			}
		}
	}
	for path, d := range docs {
		if d.lintable() && w.docProj[path] == nil {
			if p := s.projectOf(path, docs); p != nil {
				p.setBuffer(path, d.text) // a project loaded before has the file on disk
				touched[p] = true
			}
		}
	}
}

// check runs the rules on the project's open documents and publishes
// their diagnostics: always for a document whose version changed since
// its last publication, otherwise only when they changed (an edit in
// another file changed what this one sees). A document edited again
// meanwhile is skipped: the next pass has it.
func (s *Server) check(p *project, docs map[string]document) *checker.Stats {
	w := s.w
	var paths []string
	byDisplay := map[string]document{}
	for path, d := range docs {
		if w.docProj[path] == p {
			disp := p.display(path)
			paths = append(paths, disp)
			byDisplay[disp] = d
		}
	}
	if len(paths) == 0 {
		return nil
	}
	slices.Sort(paths)
	res := p.session.Check(paths)
	diags := res.Diagnostics
	if slices.Contains(p.st.selected, unusednoqa.Rule) {
		diags = append(diags, unusednoqa.Check(res.Noqa, p.st.selected, s.opts.Rules)...)
		analyzer.SortDiagnostics(diags)
	}
	byPath := map[string][]analyzer.Diagnostic{}
	for _, d := range diags {
		if _, open := byDisplay[d.Path]; open && !p.st.cfg.PerFileIgnored(p.abs(d.Path), d.Rule.ID) {
			byPath[d.Path] = append(byPath[d.Path], d)
		}
	}
	s.logProblemsByPath(p, paths, res.Problems)
	for _, disp := range paths {
		d := byDisplay[disp]
		out := s.convert(p, d, byPath[disp])
		body, _ := json.Marshal(out)
		last, seen := w.published[d.path]
		if seen && last.version == d.version && last.uri == d.uri && string(last.body) == string(body) {
			continue
		}
		if !s.current(d.path, d.version) {
			continue
		}
		w.published[d.path] = published{uri: d.uri, version: d.version, body: body}
		version := d.version
		s.notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: d.uri, Version: &version, Diagnostics: out})
	}
	return res.Stats
}

// logProblems logs a file's problems when they differ from the last ones
// logged for it.
func (s *Server) logProblems(path string, ps []analyzer.Problem) {
	var lines []string
	for _, pr := range ps {
		lines = append(lines, pr.String())
	}
	msg := strings.Join(lines, "\n")
	if s.w.problems[path] == msg {
		return
	}
	s.w.problems[path] = msg
	if msg != "" {
		typ := MessageLog
		for _, pr := range ps {
			if pr.Internal {
				typ = MessageError
				msg += "\n(an internal error is a bug in sglint: please report it; the other rules and files were checked)"
				break
			}
		}
		s.logf(typ, "%s", msg)
	}
}

// logProblemsByPath logs a check's problems, per file checked (and for
// the project index).
func (s *Server) logProblemsByPath(p *project, paths []string, ps []analyzer.Problem) {
	by := map[string][]analyzer.Problem{}
	for _, path := range paths {
		by[path] = nil
	}
	by[checker.IndexProblemPath] = nil
	for _, pr := range ps {
		by[pr.Path] = append(by[pr.Path], pr)
	}
	for _, path := range slices.Sorted(maps.Keys(by)) {
		s.logProblems(p.id.root+"\x00"+path, by[path])
	}
}

func sortedProjects(m map[*project]bool) []*project {
	ps := slices.Collect(maps.Keys(m))
	slices.SortFunc(ps, func(a, b *project) int { return strings.Compare(a.id.String(), b.id.String()) })
	return ps
}
