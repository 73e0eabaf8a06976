// Package fix applies the text edits of findings' fixes to a file's
// source. Edits come in diagnostic coordinates (1-based lines, columns in
// Unicode code points) and must not overlap; the result must parse with
// no more errors than the source did, or nothing is changed.
package fix

import (
	"bytes"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/syntax"
)

// span is an edit in byte offsets.
type span struct {
	from, to int
	text     string
}

// Apply returns src with edits applied. p parses the result to check it.
func Apply(p *syntax.Parser, src []byte, edits []analyzer.TextEdit) ([]byte, error) {
	starts := syntax.LineStarts(src)
	var spans []span
	for _, e := range edits {
		from, ok1 := offset(src, starts, e.Start)
		to, ok2 := offset(src, starts, e.End)
		if !ok1 || !ok2 || to < from {
			return nil, fmt.Errorf("edit %d:%d-%d:%d is outside the file", e.Start.Line, e.Start.Column, e.End.Line, e.End.Column)
		}
		text := e.New
		if text == "" {
			from, to, text = widenDeletion(src, from, to)
		}
		spans = append(spans, span{from, to, text})
	}
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	for i := 1; i < len(spans); i++ {
		if spans[i].from < spans[i-1].to {
			return nil, fmt.Errorf("overlapping edits at byte %d", spans[i].from)
		}
	}
	var out bytes.Buffer
	prev := 0
	for _, s := range spans {
		out.Write(src[prev:s.from])
		out.WriteString(s.text)
		prev = s.to
	}
	out.Write(src[prev:])
	res := out.Bytes()
	if before, after := errorsIn(p, src), errorsIn(p, res); after > before {
		return nil, fmt.Errorf("the edited file would not parse (%d error nodes, %d before)", after, before)
	}
	return res, nil
}

// widenDeletion extends a deletion that ends its line over the blanks
// before it and, when the line is then empty, over the whole line and its
// end. A deleted comment with more comment text after it (`# noqa: SGL004
// -- why`) leaves its `#`, so that the rest stays a comment.
func widenDeletion(src []byte, from, to int) (int, int, string) {
	rest := to
	for rest < len(src) && (src[rest] == ' ' || src[rest] == '\t') {
		rest++
	}
	if !(rest == len(src) || src[rest] == '\n' || src[rest] == '\r') {
		if src[from] == '#' {
			return from, to, "#"
		}
		return from, to, ""
	}
	for from > 0 && (src[from-1] == ' ' || src[from-1] == '\t') {
		from--
	}
	atLineStart := from == 0 || src[from-1] == '\n'
	to = rest
	if atLineStart {
		switch {
		case bytes.HasPrefix(src[to:], []byte("\r\n")):
			to += 2
		case to < len(src):
			to++
		}
	}
	return from, to, ""
}

// offset converts a diagnostic position to a byte offset.
func offset(src []byte, starts []uint32, p syntax.Position) (int, bool) {
	if p.Line < 1 || p.Line > len(starts) || p.Column < 1 {
		return 0, false
	}
	at := int(starts[p.Line-1])
	for col := 1; col < p.Column; col++ {
		if at >= len(src) || src[at] == '\n' {
			return 0, false
		}
		_, size := utf8.DecodeRune(src[at:])
		at += size
	}
	return at, true
}

// errorsIn counts the syntax errors of src: ERROR nodes and tokens the
// parser had to invent (MISSING), at least one when the tree is not clean
// (an error the walk does not see).
func errorsIn(p *syntax.Parser, src []byte) int {
	t, err := p.Parse(src)
	if err != nil {
		return 1 << 30
	}
	if t.Clean() {
		return 0
	}
	n := 0
	for i := 0; i < t.Len(); i++ {
		if id := syntax.NodeID(i); t.IsError(id) || t.IsMissing(id) {
			n++
		}
	}
	return max(n, 1)
}
