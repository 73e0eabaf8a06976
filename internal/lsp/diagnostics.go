package lsp

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/rules/unusednoqa"
)

// convert turns a document's findings into protocol diagnostics. Ranges
// are converted on the text the rules saw (the document's), related
// locations on the text the session holds for their file.
func (s *Server) convert(p *project, d document, ds []analyzer.Diagnostic) []Diagnostic {
	s.mu.Lock()
	caps := s.caps.TextDocument.PublishDiagnostics
	s.mu.Unlock()
	text := newLineText([]byte(d.text))
	others := map[string]*lineText{}
	lineOf := func(display string) *lineText {
		if t, ok := others[display]; ok {
			return t
		}
		var t *lineText
		if src := p.session.Source(display); src != nil {
			t = newLineText(src)
		}
		others[display] = t
		return t
	}
	out := make([]Diagnostic, 0, len(ds))
	for _, f := range ds {
		diag := Diagnostic{
			Range:    Range{Start: text.fromEngine(f.Start.Line, f.Start.Column), End: text.fromEngine(f.End.Line, f.End.Column)},
			Severity: SeverityWarning,
			Code:     f.Rule.ID,
			Source:   "sglint",
			Message:  f.Message,
		}
		if f.Severity() == analyzer.Error {
			diag.Severity = SeverityError
		}
		if caps.CodeDescriptionSupport {
			diag.CodeDescription = &CodeDescription{Href: s.ruleDocURL(f.Rule)}
		}
		if f.Rule == unusednoqa.Rule && caps.TagSupport != nil && slices.Contains(caps.TagSupport.ValueSet, TagUnnecessary) {
			diag.Tags = []int{TagUnnecessary} // shown faded, as dead code is
		}
		for _, r := range f.Related {
			pos := Position{Line: max(0, r.Line-1), Character: max(0, r.Column-1)}
			if t := lineOf(r.Path); t != nil {
				pos = t.fromEngine(r.Line, r.Column)
			}
			if caps.RelatedInformation {
				diag.RelatedInformation = append(diag.RelatedInformation, DiagnosticRelatedInformation{
					Location: Location{URI: pathURI(p.abs(r.Path)), Range: Range{Start: pos, End: pos}},
					Message:  r.Message,
				})
			} else { // the chain is worth reading even where the client cannot link it
				diag.Message += fmt.Sprintf("\n%s:%d:%d: %s", r.Path, pos.Line+1, pos.Character+1, r.Message)
			}
		}
		out = append(out, diag)
	}
	return out
}

// ruleDocURL links a rule's documentation: the doc.md of the rule's
// package in sglint's repository, at the release's tag (main for a
// development build). The package is the one that defines the rule's Run
// function, so a new rule needs no entry here; a rule defined elsewhere
// links the README's list of rules.
func (s *Server) ruleDocURL(r *analyzer.Rule) string {
	ref := "main"
	if v := s.opts.Version; strings.HasPrefix(v, "v") && !strings.ContainsAny(v, " /") {
		ref = v
	}
	if dir := rulePackageDir(r); dir != "" {
		return repositoryURL + "/blob/" + ref + "/" + dir + "/doc.md"
	}
	return repositoryURL + "/blob/" + ref + "/README.md#rules"
}

const (
	repositoryURL = "https://github.com/sglint/sglint"
	modulePath    = "github.com/sglint/sglint/"
)

var ruleDirs sync.Map // *analyzer.Rule -> string

// rulePackageDir is the repository directory of the package defining r's
// Run function ("rules/readinessguard"), "" if it is not in this module.
func rulePackageDir(r *analyzer.Rule) string {
	if v, ok := ruleDirs.Load(r); ok {
		return v.(string)
	}
	dir := ""
	if r.Run != nil {
		if fn := runtime.FuncForPC(reflect.ValueOf(r.Run).Pointer()); fn != nil {
			name := fn.Name() // github.com/sglint/sglint/rules/readinessguard.run (or .init.func1)
			if rest, ok := strings.CutPrefix(name, modulePath); ok {
				slash := strings.LastIndexByte(rest, '/')
				if dot := strings.IndexByte(rest[slash+1:], '.'); dot > 0 {
					dir = rest[:slash+1+dot]
				}
			}
		}
	}
	ruleDirs.Store(r, dir)
	return dir
}
