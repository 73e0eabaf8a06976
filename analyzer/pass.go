package analyzer

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/internal/oncemap"
)

// File is one Python source file loaded for a run.
type File struct {
	Path   string // as shown to users: relative to the working directory, forward slashes
	Abs    string // absolute path on disk ("" for stdin)
	Report bool   // findings are wanted for this file (false: loaded for context only)
	// Summary is the file's project-model summary (nil if summarising
	// failed; an internal problem says why).
	Summary *pymodel.Summary
	// Module is the dotted module name, from the path relative to the root.
	Module string
	// Model is this file's index in Project.Index.Files, -1 if it is not
	// in the index.
	Model int32

	// Package: the file is a package's __init__ module.
	Package bool

	// src is the source as parsed (lone CRs read as LF), kept for trees
	// parsed again and for line texts.
	src  []byte
	tree atomic.Pointer[syntax.Tree]
	mu   sync.Mutex // serialises rebuilding the tree
	// rebuild brings the tree back when it is not in memory (the driver's:
	// unpack it, or parse again); nil parses with a parser of its own.
	rebuild func(src []byte) *syntax.Tree
}

// Tree returns the file's syntax tree. Trees are not all kept in memory
// between loading and checking, and files whose results come from a cache
// are not parsed at all: a tree that is not in memory is rebuilt on first
// use, once, however many goroutines ask. The tree is never nil (an empty
// tree if the parser gives up, which it did not do when the file was
// loaded).
func (f *File) Tree() *syntax.Tree {
	if t := f.tree.Load(); t != nil {
		return t
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if t := f.tree.Load(); t != nil {
		return t
	}
	var t *syntax.Tree
	if f.rebuild != nil {
		t = f.rebuild(f.src)
	}
	if t == nil {
		p := syntax.NewParser()
		defer p.Close()
		if t, _ = p.Parse(f.src); t == nil {
			t, _ = p.Parse(nil)
		}
	}
	f.tree.Store(t)
	return t
}

// NewLoadedFile returns a file for a driver: its source, and how to
// rebuild its tree when the tree is not in memory (nil: parse again).
// Rules never build files.
func NewLoadedFile(path, abs string, report bool, src []byte, rebuild func(src []byte) *syntax.Tree) *File {
	return &File{Path: path, Abs: abs, Report: report, Model: -1, src: src, rebuild: rebuild}
}

// SetTree puts t in memory as the file's tree (for a driver that has just
// parsed it).
func (f *File) SetTree(t *syntax.Tree) { f.tree.Store(t) }

// LoadedTree returns the tree in memory, nil when it was dropped (Tree
// rebuilds it): for a driver that has a use for the tree only when it
// costs nothing to get.
func (f *File) LoadedTree() *syntax.Tree { return f.tree.Load() }

// DropTree forgets the tree in memory (Tree rebuilds it), first running
// under (when not nil) while holding the lock that Tree takes to rebuild:
// a driver keeps the tree's packed form there, so that no rebuild can see
// the tree gone and the packed form not yet kept. under gets the tree that
// was in memory, nil if none.
func (f *File) DropTree(under func(t *syntax.Tree)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if under != nil {
		under(f.tree.Load())
	}
	f.tree.Store(nil)
}

// Src is the file's source as parsed: lone carriage returns read as line
// feeds, every other byte as on disk.
func (f *File) Src() []byte { return f.src }

// NewFile returns a loaded file for tests and tools that build a Project
// themselves: its tree is t, and its source t.Src.
func NewFile(path string, t *syntax.Tree) *File {
	f := &File{Path: path, Model: -1, src: t.Src}
	f.tree.Store(t)
	return f
}

// Project is everything loaded for a run; rules see it read-only.
type Project struct {
	Root  string // directory module names are relative to
	Files []*File
	// Index links the summaries of all files loaded (reported on or
	// context only): classes across files, the call graph, function
	// summaries. Built once after loading; safe for concurrent reads.
	Index *pymodel.Index
	// Flow computes guard facts on demand over the index: per function
	// with what callees guarantee, and on entry from checks in callers
	// (Flow.Guards). Safe for concurrent use.
	Flow *pymodel.Flow
	// Records are the error records of the run (Options.Records; nil when
	// none were given).
	Records *records.Set
	// RaiseSites are the records' raise sites in every loaded file (reported
	// on or context only), in input order, then source order.
	RaiseSites []RaiseSite

	shared  oncemap.Map[any, any] // see Shared
	byModel []*File               // by index in Index.Files
}

// LinkModel records which file each index file is (Project.ModelFile), from
// the files' Model numbers; a driver calls it once Index is built.
func (p *Project) LinkModel() {
	if p.Index == nil {
		p.byModel = nil
		return
	}
	p.byModel = make([]*File, len(p.Index.Files))
	for _, f := range p.Files {
		if f.Summary != nil && f.Model >= 0 && int(f.Model) < len(p.byModel) {
			p.byModel[f.Model] = f
		}
	}
}

// ModelFile returns the file at index fi of Index.Files (a pymodel file
// index, as in FuncRef.File), nil if there is none.
func (p *Project) ModelFile(fi int32) *File {
	if fi < 0 || int(fi) >= len(p.byModel) {
		return nil
	}
	return p.byModel[fi]
}

// Shared returns the value computed by compute for key, computing it once
// per project however many passes (on however many goroutines) ask. It is
// for project-wide analyses that several files' passes read, such as the
// send paths of rules/sendpath; key should be a comparable value of a type
// the caller owns, so that packages cannot collide. compute must not call
// Shared with the same key. The value is shared: treat it as read-only.
func (p *Project) Shared(key any, compute func() any) any {
	return p.shared.Get(key, compute)
}

// RaiseSite is a record's raise site in a file of the project.
type RaiseSite struct {
	File *File
	records.Site
}

// Pass is what a rule's Run receives for one file.
type Pass struct {
	Rule    *Rule
	File    *File
	Project *Project

	state    *FileState
	options  any
	sections map[*Section]any
}

// NewPass returns the pass of rule r on file f, for a driver: s is shared
// by the passes of every rule on f; options are r's (nil: none) and
// sections the run's shared settings.
func NewPass(r *Rule, f *File, p *Project, s *FileState, options any, sections map[*Section]any) *Pass {
	return &Pass{Rule: r, File: f, Project: p, state: s, options: options, sections: sections}
}

// Options returns the rule's options: the configured value, or the defaults
// from Rule.Options; nil for a rule without options. Rules type-assert it to
// the pointer type their hook returns and must not modify it (passes on
// several files share it).
func (p *Pass) Options() any { return p.options }

// OptionsOf returns p's options as a *T, or defaults() when they are nil
// or of another type (a Pass built outside Run, a rule without an Options
// hook), so rules need not repeat the assertion and its fallback.
func OptionsOf[T any](p *Pass, defaults func() *T) *T { return settingOr(p.options, defaults) }

// SectionOf returns the settings of section s for p's run as a *T: the
// configured value, else defaults() (also for a Pass built outside Run, or
// a rule that does not list s in Rule.Sections). Rules must not modify it.
func SectionOf[T any](p *Pass, s *Section, defaults func() *T) *T {
	return settingOr(p.sections[s], defaults)
}

// settingOr is v as a *T, or defaults() when v is nil or of another type:
// the one fallback of the options and section lookups.
func settingOr[T any](v any, defaults func() *T) *T {
	if o, ok := v.(*T); ok && o != nil {
		return o
	}
	return defaults()
}

// FileState is shared by the passes of all rules on one file: the results
// of the shared analyses, and the findings. Rules on a file run one after
// the other in a single goroutine, so it needs no lock.
type FileState struct {
	results map[*Analysis]analysisResult
	running map[*Analysis]bool
	diags   []Diagnostic
}

// NewFileState returns an empty state, for a driver.
func NewFileState() *FileState {
	return &FileState{results: map[*Analysis]analysisResult{}, running: map[*Analysis]bool{}}
}

// Diagnostics are the findings reported so far.
func (s *FileState) Diagnostics() []Diagnostic { return s.diags }

// Truncate drops the findings after the first n (those of a rule that
// panicked).
func (s *FileState) Truncate(n int) { s.diags = s.diags[:n] }

type analysisResult struct {
	value any
	err   error
}

// ResultOf returns the result of a shared analysis on this file, running it
// (and what it requires) on first use.
func (p *Pass) ResultOf(a *Analysis) (any, error) {
	if r, ok := p.state.results[a]; ok {
		return r.value, r.err
	}
	if p.state.running[a] {
		return nil, fmt.Errorf("analysis %s requires itself", a.Name)
	}
	p.state.running[a] = true
	defer delete(p.state.running, a)
	for _, req := range a.Requires {
		if _, err := p.ResultOf(req); err != nil {
			p.state.results[a] = analysisResult{err: err}
			return nil, err
		}
	}
	v, err := a.Run(p)
	p.state.results[a] = analysisResult{value: v, err: err}
	return v, err
}

// Report records a finding. Path, rule and record are filled in when empty.
func (p *Pass) Report(d Diagnostic) {
	if d.Rule == nil {
		d.Rule = p.Rule
	}
	if d.Path == "" {
		d.Path = p.File.Path
	}
	if d.Record == "" {
		d.Record = d.Rule.Record
	}
	p.state.diags = append(p.state.diags, d)
}

// ReportNode reports a finding spanning node n of the pass's file.
func (p *Pass) ReportNode(n syntax.NodeID, message string, related ...Related) {
	t := p.File.Tree()
	p.Report(Diagnostic{
		Start:    t.Start(n),
		End:      t.End(n),
		Message:  message,
		Function: syntax.QualName(t, n),
		Related:  related,
	})
}

// Reportf is ReportNode with a format.
func (p *Pass) Reportf(n syntax.NodeID, format string, args ...any) {
	p.ReportNode(n, fmt.Sprintf(format, args...))
}

// RelatedAt builds a related location at node n of file f.
func RelatedAt(f *File, n syntax.NodeID, message string) Related {
	pos := f.Tree().Start(n)
	return Related{Path: f.Path, Line: pos.Line, Column: pos.Column, Message: message}
}
