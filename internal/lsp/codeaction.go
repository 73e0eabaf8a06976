package lsp

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/sglint/sglint/analyzer/noqa"
	"github.com/sglint/sglint/analyzer/syntax"
)

// codeAction offers, for each sglint diagnostic in the request's context, a
// quick fix that adds `# noqa: CODE` to the end of the diagnostic's first
// line (or CODE to a `# noqa: ...` already there), as `sglint --add-noqa`
// would. The edit is returned, never applied: the server writes no file.
// No action is offered where a comment cannot go (the line ends inside a
// multi-line string or with a backslash).
func (s *Server) codeAction(p CodeActionParams) []CodeAction {
	out := []CodeAction{}
	if len(p.Context.Only) > 0 && !slices.Contains(p.Context.Only, QuickFix) {
		return out
	}
	path, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return out
	}
	s.mu.Lock()
	var doc document
	d := s.docs[path]
	if d != nil {
		doc = *d
	}
	docChanges := s.caps.Workspace.WorkspaceEdit.DocumentChanges
	// A client from before LSP 3.8 takes commands only; the server has no
	// command that edits, so it offers nothing.
	literals := s.caps.TextDocument.CodeAction.CodeActionLiteralSupport != nil
	s.mu.Unlock()
	if d == nil || !doc.lintable() || !literals {
		return out
	}
	type key struct {
		line int
		code string
	}
	done := map[key]bool{}
	for _, raw := range p.Context.Diagnostics {
		var cd contextDiagnostic
		var code string
		if json.Unmarshal(raw, &cd) != nil || cd.Source != "sglint" || json.Unmarshal(cd.Code, &code) != nil || !s.knownRule(code) {
			continue
		}
		k := key{cd.Range.Start.Line, code}
		if done[k] {
			continue
		}
		done[k] = true
		edit, ok := s.noqaEdit(doc.text, cd.Range.Start.Line, code)
		if !ok {
			continue
		}
		we := &WorkspaceEdit{}
		if docChanges { // the client refuses the edit if the document changed since
			v := doc.version
			we.DocumentChanges = []TextDocumentEdit{{TextDocument: VersionedTextDocumentIdentifier{URI: doc.uri, Version: &v}, Edits: []TextEdit{edit}}}
		} else {
			we.Changes = map[string][]TextEdit{doc.uri: {edit}}
		}
		out = append(out, CodeAction{
			Title:       fmt.Sprintf("Suppress %s on this line (# noqa: %s)", code, code),
			Kind:        QuickFix,
			Diagnostics: []json.RawMessage{raw},
			Edit:        we,
		})
	}
	return out
}

// knownRule reports a registered rule's ID.
func (s *Server) knownRule(id string) bool {
	for _, r := range s.opts.Rules {
		if r.ID == id {
			return true
		}
	}
	return false
}

// noqaEdit is the edit that suppresses code on 0-based line of text: the
// noqa package's --add-noqa edit (which re-parses its result and checks
// the comment suppresses the finding without a new syntax error), reduced
// to the one span that changes.
func (s *Server) noqaEdit(text string, line int, code string) (edit TextEdit, ok bool) {
	src := []byte(text)
	s.parserMu.Lock()
	defer s.parserMu.Unlock()
	defer func() {
		if v := recover(); v != nil {
			s.parser = nil // it may be half-way through a parse: never reuse it
			panic(v)
		}
	}()
	if s.parser == nil {
		s.parser = syntax.NewParser()
	}
	out, added, skipped, err := noqa.AddToSource(s.parser, src, map[int][]string{line + 1: {code}})
	if err != nil || added == 0 || len(skipped) > 0 {
		return TextEdit{}, false
	}
	pre := 0
	for pre < len(src) && pre < len(out) && src[pre] == out[pre] {
		pre++
	}
	suf := 0
	for suf < len(src)-pre && suf < len(out)-pre && src[len(src)-1-suf] == out[len(out)-1-suf] {
		suf++
	}
	t := newLineText(src)
	return TextEdit{
		Range:   Range{Start: t.fromOffset(pre), End: t.fromOffset(len(src) - suf)},
		NewText: string(out[pre : len(out)-suf]),
	}, true
}
