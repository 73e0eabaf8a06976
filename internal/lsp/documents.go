package lsp

import (
	"net/url"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/sglint/sglint/analyzer/config"
)

// pending is the work the connection leaves for the worker.
type pending struct {
	docs     map[string]bool   // documents opened, changed or closed, by path
	closed   map[string]string // URIs of the documents closed, by path
	disk     map[string]int    // files created, changed or deleted on disk, by path
	settings map[string]bool   // settings files changed, by path
}

func newPending() *pending {
	return &pending{docs: map[string]bool{}, closed: map[string]string{}, disk: map[string]int{}, settings: map[string]bool{}}
}

// settingsFile reports a file whose change may change a project's settings.
func settingsFile(path string) bool {
	base := filepath.Base(path)
	return base == config.PyprojectName || base == config.StandaloneName
}

// lintable reports a document sglint checks: Python, by language or name.
func (d *document) lintable() bool {
	return d.lang == "python" || strings.HasSuffix(d.path, ".py")
}

// uriPath returns the absolute, clean path of a file URI; ok is false for
// other schemes (an unsaved buffer's untitled:, a diff view's git:).
func uriPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Host != "" && u.Host != "localhost" || u.Path == "" {
		return "", false
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // /C:/x -> C:/x
	}
	p = filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(p) {
		return "", false
	}
	return p, true
}

// pathURI is the file URI of an absolute path.
func pathURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// wakeWorker tells the worker there is work, without blocking.
func (s *Server) wakeWorker() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Server) didOpen(p DidOpenTextDocumentParams) {
	path, ok := uriPath(p.TextDocument.URI)
	if !ok {
		s.logf(MessageLog, "not checked (not a file on disk): %s", p.TextDocument.URI)
		return
	}
	d := &document{uri: p.TextDocument.URI, path: path, lang: p.TextDocument.LanguageID,
		version: p.TextDocument.Version, text: p.TextDocument.Text}
	s.mu.Lock()
	s.docs[path] = d
	if d.lintable() {
		s.pending.docs[path] = true
	}
	s.mu.Unlock()
	s.wakeWorker()
}

func (s *Server) didChange(p DidChangeTextDocumentParams) {
	path, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	d := s.docs[path]
	if d == nil {
		s.mu.Unlock()
		s.logf(MessageWarning, "didChange for a document that is not open: %s", p.TextDocument.URI)
		return
	}
	for _, ch := range p.ContentChanges {
		d.text = applyChange(d.text, ch)
	}
	if p.TextDocument.Version != nil {
		d.version = *p.TextDocument.Version
	} else {
		d.version++
	}
	if d.lintable() {
		s.pending.docs[path] = true
	}
	s.mu.Unlock()
	s.wakeWorker()
}

// didSave reloads the settings when a settings file open in the editor is
// saved (for clients that do not watch files for the server). A saved
// Python file needs nothing: its buffer is already what the model holds.
func (s *Server) didSave(p DidSaveTextDocumentParams) {
	path, ok := uriPath(p.TextDocument.URI)
	if !ok || !settingsFile(path) {
		return
	}
	s.mu.Lock()
	s.pending.settings[path] = true
	s.mu.Unlock()
	s.wakeWorker()
}

// didClose forgets the buffer: the file on disk takes its place in the
// model, and its diagnostics are cleared.
func (s *Server) didClose(p DidCloseTextDocumentParams) {
	path, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	d := s.docs[path]
	delete(s.docs, path)
	if d != nil && d.lintable() {
		s.pending.docs[path] = true
		s.pending.closed[path] = d.uri
	}
	s.mu.Unlock()
	s.wakeWorker()
}

func (s *Server) didChangeWatchedFiles(p DidChangeWatchedFilesParams) {
	s.mu.Lock()
	for _, ch := range p.Changes {
		path, ok := uriPath(ch.URI)
		switch {
		case !ok:
		case settingsFile(path):
			s.pending.settings[path] = true
		case ch.Type == FileDeleted || strings.HasSuffix(path, ".py") && ch.Type == FileCreated || strings.HasSuffix(path, ".py") && ch.Type == FileChanged:
			// A deleted directory may have held Python files, and settings
			// files: it comes as one event, for the directory alone.
			if ch.Type == FileDeleted && !strings.HasSuffix(path, ".py") {
				s.pending.settings[path] = true
			}
			if prev := s.pending.disk[path]; prev == 0 || ch.Type != FileChanged {
				s.pending.disk[path] = ch.Type // a create or delete outweighs a change
			}
		}
	}
	s.mu.Unlock()
	s.wakeWorker()
}

// snapshot takes the pending work and copies the open documents.
func (s *Server) snapshot() (*pending, map[string]document) {
	s.mu.Lock()
	defer s.mu.Unlock()
	work := s.pending
	s.pending = newPending()
	docs := make(map[string]document, len(s.docs))
	for p, d := range s.docs {
		docs[p] = *d
	}
	return work, docs
}

// current reports whether the document at path is still open at version.
func (s *Server) current(path string, version int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	return d != nil && d.version == version
}
