// Package syntaxerror reports files sglint could not parse (SGL000). It is
// not a syntax checker: tree-sitter accepts some code CPython rejects.
package syntaxerror

import (
	"bytes"
	_ "embed"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/syntax"
)

//go:embed doc.md
var doc string

// Rule SGL000 syntax-error.
var Rule = &analyzer.Rule{
	ID:       "SGL000",
	Name:     "syntax-error",
	Severity: analyzer.Error,
	Title:    "File sglint cannot parse (not a full syntax check)",
	Local:    true,
	Run:      run,
	Doc:      doc,
}

func run(pass *analyzer.Pass) error {
	t := pass.File.Tree()
	if off := firstInvalidUTF8(t.Src); off >= 0 && !declaresOtherEncoding(t.Src) {
		pass.Report(analyzer.Diagnostic{
			Start:    t.Pos(off),
			End:      t.Pos(off + 1),
			Function: syntax.QualName(t, nodeAt(t, off)),
			Message: fmt.Sprintf("invalid UTF-8 (byte 0x%02x); Python reads source as UTF-8 "+
				"unless a coding declaration names another encoding", t.Src[off]),
		})
		return nil
	}
	if p, ok := locate(t); ok {
		if !p.after {
			pass.ReportNode(p.node, p.message)
			return nil
		}
		at := t.End(p.node)
		pass.Report(analyzer.Diagnostic{Start: at, End: at, Message: p.message, Function: syntax.QualName(t, p.node)})
	}
	return nil
}

// firstInvalidUTF8 returns the offset of the first byte that is not part of
// a valid UTF-8 sequence, or -1.
func firstInvalidUTF8(src []byte) int {
	if utf8.Valid(src) {
		return -1
	}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// codingCookie is PEP 263's declaration: a comment on line 1 or 2 matching
// coding[:=]\s*([-\w.]+).
var codingCookie = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`)
})

// declaresOtherEncoding reports a PEP 263 declaration of an encoding other
// than UTF-8 on line 1 or 2 (line 2 only after a comment or blank line 1).
func declaresOtherEncoding(src []byte) bool {
	lines := bytes.SplitN(src, []byte("\n"), 3)
	for i, line := range lines[:min(2, len(lines))] {
		if m := codingCookie().FindSubmatch(line); m != nil {
			enc := strings.ReplaceAll(strings.ToLower(string(m[1])), "_", "-")
			return enc != "utf-8" && enc != "utf8" && !strings.HasPrefix(enc, "utf-8-")
		}
		if i == 0 && !isBlankOrComment(line) {
			return false
		}
	}
	return false
}

func isBlankOrComment(line []byte) bool {
	line = bytes.TrimLeft(line, " \t\f\r")
	return len(line) == 0 || line[0] == '#'
}

// nodeAt returns the innermost node whose span holds offset (the root if
// none does).
func nodeAt(t *syntax.Tree, offset int) syntax.NodeID {
	found := t.Root()
	for i := 0; i < t.Len(); i++ {
		n := syntax.NodeID(i)
		if t.StartByte(n) <= offset && offset < t.EndByte(n) {
			found = n // preorder: a later hit lies deeper
		}
	}
	return found
}

// FirstError returns the first ERROR or MISSING node in source order.
func FirstError(t *syntax.Tree) syntax.NodeID {
	for i := 0; i < t.Len(); i++ {
		n := syntax.NodeID(i)
		if t.IsError(n) || t.IsMissing(n) {
			return n
		}
	}
	return syntax.NoNode
}
