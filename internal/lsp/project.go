package lsp

import (
	"fmt"
	"path/filepath"
	"reflect"
	"time"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/internal/projectfiles"
	"github.com/sglint/sglint/internal/relpath"
)

// projectID names a project: its root (module names are relative to it)
// and its settings file ("" for the defaults). Both are found from a file's
// path as `sglint --stdin-filename FILE` finds them.
type projectID struct {
	root, configFile string
}

func (id projectID) String() string {
	if id.configFile == "" {
		return id.root + " (default settings)"
	}
	return id.root + " (settings: " + id.configFile + ")"
}

// locate returns the project of the file at path.
func locate(path string) (projectID, error) {
	file, err := config.Find(path)
	return projectID{root: discover.ProjectRoot([]string{path}), configFile: file}, err
}

// settings are a project's configuration, resolved.
type settings struct {
	cfg      *config.Config
	selected []*analyzer.Rule
	records  *records.Set
}

// same reports whether two settings check alike (a pyproject.toml saved
// with another [project] version changes nothing).
func (st *settings) same(o *settings) bool {
	return reflect.DeepEqual(st.cfg, o.cfg) && reflect.DeepEqual(st.records, o.records)
}

// loadSettings reads the settings of project id. A file that does not
// load is an error listing every problem, one a line (config.Errors,
// records.Errors).
func (s *Server) loadSettings(id projectID) (*settings, error) {
	cfg := config.Default(id.root)
	if id.configFile != "" {
		c, err := config.Load(id.configFile, s.opts.Rules)
		if err != nil {
			return nil, err
		}
		cfg = c
	}
	selected, err := analyzer.SelectLayers(s.opts.Rules, cfg.Selection)
	if err != nil {
		return nil, err
	}
	st := &settings{cfg: cfg, selected: selected}
	if len(cfg.Records) > 0 {
		st.records, err = records.Load(cfg.Records...)
		if err != nil {
			return nil, err
		}
	}
	return st, nil
}

// project is a loaded project and what the worker knows about it.
type project struct {
	id       projectID
	anchor   string // the file whose path located the project (to locate it again)
	st       *settings
	complete bool // the root is a real project: every file under it is loaded
	session  *checker.Session
	onDisk   map[string]bool   // absolute paths found by discovery
	buffers  map[string]string // text of the open documents the session holds, by path
}

// display is the path the session knows a file by: relative to the root
// with forward slashes, as `sglint .` run from the root shows it.
func (p *project) display(abs string) string {
	if !p.under(abs) {
		return filepath.ToSlash(abs)
	}
	rel, _ := filepath.Rel(p.id.root, abs)
	return filepath.ToSlash(rel)
}

// abs is the absolute path of a display path.
func (p *project) abs(display string) string {
	if filepath.IsAbs(filepath.FromSlash(display)) {
		return filepath.FromSlash(display)
	}
	return filepath.Join(p.id.root, filepath.FromSlash(display))
}

// openProject loads project id with the open documents in it (their text
// replaces the files on disk).
func (s *Server) openProject(id projectID, anchor string, st *settings, docs map[string]document) *project {
	p := &project{id: id, anchor: anchor, st: st,
		onDisk: map[string]bool{}, buffers: map[string]string{}}
	start := time.Now()
	var inputs []checker.Input
	at := map[string]int{} // the input of each file found on disk
	if discover.IsProjectRoot(id.root) {
		p.complete = true
		files, problems := discover.Find([]string{id.root}, s.walkOptions(st.cfg))
		for _, pr := range problems {
			s.logf(MessageLog, "%s", pr)
		}
		for _, f := range files {
			p.onDisk[f.Abs] = true
			at[f.Abs] = len(inputs)
			inputs = append(inputs, checker.Input{Path: p.display(f.Abs), Abs: f.Abs})
		}
	}
	for path, d := range docs {
		if !d.lintable() || !p.owns(path) {
			continue
		}
		if i, ok := at[path]; ok {
			inputs[i].Src = []byte(d.text)
		} else {
			inputs = append(inputs, checker.Input{Path: p.display(path), Abs: path, Src: []byte(d.text)})
		}
		p.buffers[path] = d.text
	}
	store := s.openCache(id.root)
	p.session = checker.NewSession(inputs, checker.Options{Rules: st.selected, Jobs: s.opts.Jobs, Root: id.root,
		RuleOptions: st.cfg.RuleOptions, SectionOptions: st.cfg.SectionOptions, Records: st.records, Cache: store})
	ls := p.session.LoadStats()
	s.logf(MessageInfo, "loaded %s: %d files (%d from the cache, %d parsed) in %.0f ms", id, ls.Files, ls.Cached, ls.Parsed,
		ms(time.Since(start)))
	for _, pr := range p.session.LoadProblems() {
		typ := MessageLog // a context file nobody asked about
		if pr.Internal {
			typ = MessageError
		}
		s.logf(typ, "%s", pr)
	}
	return p
}

// owns reports whether the file at path belongs to p (the worker asks only
// about files whose project it located as p's).
func (p *project) owns(path string) bool {
	id, err := locate(path)
	return err == nil && id == p.id
}

// openCache opens the project's cache read-only: the server writes no
// file, so it reads what `sglint` runs left (the same build's cache, in
// the same place: cache.DefaultDir).
func (s *Server) openCache(root string) *cache.Store {
	if s.opts.NoCache {
		return nil
	}
	dir := cache.DefaultDir(root)
	engine, err := cache.EngineID()
	if err == nil {
		var st *cache.Store
		if st, err = cache.OpenReadOnly(dir, engine); err == nil {
			return st
		}
	}
	s.logf(MessageLog, "no cache for %s (%v): every file is parsed; a run of `sglint` on the project writes one", root, err)
	return nil
}

// setBuffer puts an open document's text in the session, unless it holds
// that text already.
func (p *project) setBuffer(path, text string) {
	if old, ok := p.buffers[path]; ok && old == text {
		return
	}
	p.buffers[path] = text
	p.session.Set(checker.Input{Path: p.display(path), Abs: path, Src: []byte(text)}) // its problems come with the check
}

// release puts the file on disk back in the place of a closed document's
// text, or drops the file if discovery does not list it (an excluded file,
// a file of a directory that is not a project, or one never saved).
func (p *project) release(path string) {
	if _, ok := p.buffers[path]; !ok {
		return
	}
	delete(p.buffers, path)
	if p.onDisk[path] {
		p.session.Set(checker.Input{Path: p.display(path), Abs: path})
	} else {
		p.session.Remove(p.display(path))
	}
}

// diskChanged reads again a file that changed on disk, unless the editor
// holds its text.
func (p *project) diskChanged(path string) {
	if _, open := p.buffers[path]; open || !p.onDisk[path] {
		return
	}
	p.session.Set(checker.Input{Path: p.display(path), Abs: path})
}

// rediscover lists the project's files again (a file was created or
// deleted) and brings the session in line.
func (p *project) rediscover(opts discover.Options) {
	if !p.complete {
		return
	}
	files, _ := discover.Find([]string{p.id.root}, opts)
	now := map[string]bool{}
	for _, f := range files {
		now[f.Abs] = true
		if !p.onDisk[f.Abs] {
			if _, open := p.buffers[f.Abs]; !open {
				p.session.Set(checker.Input{Path: p.display(f.Abs), Abs: f.Abs})
			}
		}
	}
	for path := range p.onDisk {
		if _, open := p.buffers[path]; !now[path] && !open {
			p.session.Remove(p.display(path))
		}
	}
	p.onDisk = now
}

// openAnchor is a document of the project that is open: its anchor if it
// is, else the first by path; "" if none is.
func (p *project) openAnchor(docProj map[string]*project) string {
	if docProj[p.anchor] == p {
		return p.anchor
	}
	first := ""
	for path, dp := range docProj {
		if dp == p && (first == "" || path < first) {
			first = path
		}
	}
	return first
}

// under reports whether path lies inside the project's root.
func (p *project) under(path string) bool { return inDir(path, p.id.root) }

// inDir reports whether path is dir or lies inside it.
func inDir(path, dir string) bool {
	_, ok := relpath.Inside(dir, path)
	return ok
}

// walkOptions returns the options of a walk of the project: each
// directory's files are selected by the settings they would be checked
// under (the nearest settings file: a nested sglint.toml's excludes apply
// below it), as `sglint --stdin-filename FILE` selects the project's other
// files (internal/cli, through projectfiles.Options). Each walk reads the
// settings files again: a nested one may have changed since the last.
// cfg is the project's settings in force: when its own settings file no
// longer loads, the settings kept (see reloadSettings) still select the
// files under it, as they still check them. Without a working directory to
// resolve against (removed under the server), cfg's selection applies to
// the whole tree, and the walk resolves against cfg's root: the walk
// itself needs a working directory, for display paths the server does not
// use (it keeps the absolute ones).
func (s *Server) walkOptions(cfg *config.Config) discover.Options {
	kept := projectfiles.Scope(cfg)
	res, err := config.NewResolver("", s.opts.Rules)
	if err != nil {
		opts := discover.DefaultOptions()
		opts.RespectGitignore, opts.NoDefaultExcludes, opts.Exclude = kept.RespectGitignore, kept.NoDefaultExcludes, kept.Exclude
		opts.Cwd = cfg.Root
		return opts
	}
	opts := projectfiles.Options(res, nil)
	byDir := opts.ScopeOf
	opts.ScopeOf = func(dir string, has func(string) bool) *discover.Scope {
		if c := res.ForListedDir(dir, has); cfg.File != "" && res.Err(c) != nil && c.Root == cfg.Root {
			return kept // the project's own settings file, broken since it loaded
		}
		return byDir(dir, has)
	}
	return opts
}

// describe is a short account of a settings error for the user.
func describe(id projectID, err error, fallback string) string {
	return fmt.Sprintf("sglint: the settings of %s do not load (%s):\n%v", id.root, fallback, err)
}
