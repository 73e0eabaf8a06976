package analyzer

import (
	"fmt"
	"sync"

	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
)

// File is one Python source file loaded for a run.
type File struct {
	Path   string // as shown to users: relative to the working directory, forward slashes
	Abs    string // absolute path on disk ("" for stdin)
	Tree   *syntax.Tree
	Report bool // findings are wanted for this file (false: loaded for context only)
	// Summary is the file's project-model summary (nil if summarising
	// failed; an internal problem says why).
	Summary *pymodel.Summary
	// Module is the dotted module name, from the path relative to the root.
	Module string
	// Model is this file's index in Project.Index.Files, -1 if it is not
	// in the index.
	Model int32

	pkg bool // an __init__ module
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

	shared sync.Map // key -> *sharedEntry (see Shared)
}

type sharedEntry struct {
	once  sync.Once
	value any
}

// Shared returns the value computed by compute for key, computing it once
// per project however many passes (on however many goroutines) ask. It is
// for project-wide analyses that several files' passes read, such as the
// send paths of rules/sendpath; key should be a comparable value of a type
// the caller owns, so that packages cannot collide. compute must not call
// Shared with the same key. The value is shared: treat it as read-only.
func (p *Project) Shared(key any, compute func() any) any {
	e, _ := p.shared.LoadOrStore(key, &sharedEntry{})
	se := e.(*sharedEntry)
	se.once.Do(func() { se.value = compute() })
	return se.value
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

	state   *fileState
	options any
}

// Options returns the rule's options: the configured value, or the defaults
// from Rule.Options; nil for a rule without options. Rules type-assert it to
// the pointer type their hook returns and must not modify it (passes on
// several files share it).
func (p *Pass) Options() any { return p.options }

// fileState is shared by the passes of all rules on one file. Rules on a
// file run one after the other in a single goroutine, so it needs no lock.
type fileState struct {
	results map[*Analysis]analysisResult
	running map[*Analysis]bool
	diags   []Diagnostic
}

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
	t := p.File.Tree
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
	pos := f.Tree.Start(n)
	return Related{Path: f.Path, Line: pos.Line, Column: pos.Column, Message: message}
}
