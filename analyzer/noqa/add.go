package noqa

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sglint/sglint/analyzer/syntax"
)

// Skipped is a line where no suppression could be added.
type Skipped struct {
	Line   int
	Reason string
}

// AddToSource returns src with suppressions for the given lines (want maps
// a 1-based line to the rule IDs to suppress there), the number of
// directives added or extended, and the lines skipped. It parses src with
// p, edits it (see add), then parses the result again and checks that
// every wanted code is now suppressed on its line and that the edit made no
// new syntax error, so a mistake here can never silently change a file.
func AddToSource(p *syntax.Parser, src []byte, want map[int][]string) ([]byte, int, []Skipped, error) {
	t, err := p.Parse(loneCRToLF(src))
	if err != nil {
		return nil, 0, nil, err
	}
	out, added, skipped, err := add(src, t, Parse(t), want)
	if err != nil || added == 0 {
		return src, 0, skipped, err
	}
	t2, err := p.Parse(loneCRToLF(out))
	if err != nil {
		return nil, 0, nil, err
	}
	after := Parse(t2)
	for line, codes := range want {
		if slices.ContainsFunc(skipped, func(s Skipped) bool { return s.Line == line }) {
			continue
		}
		for _, c := range codes {
			if !after.Suppresses(c, line) {
				return nil, 0, nil, fmt.Errorf("line %d: the added directive does not suppress %s", line, c)
			}
		}
	}
	if errorNodes(t2) > errorNodes(t) {
		return nil, 0, nil, fmt.Errorf("adding directives would break the syntax")
	}
	return out, added, skipped, nil
}

func errorNodes(t *syntax.Tree) int {
	n := 0
	for i := 0; i < t.Len(); i++ {
		if t.IsError(syntax.NodeID(i)) || t.IsMissing(syntax.NodeID(i)) {
			n++
		}
	}
	return n
}

// loneCRToLF reads a lone CR as a line end, as the engine does before
// parsing; the length is unchanged, so offsets hold for the original bytes.
func loneCRToLF(src []byte) []byte {
	var out []byte
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 >= len(src) || src[i+1] != '\n' {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[i] = '\n'
		}
		j := bytes.IndexByte(src[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if out == nil {
		return src
	}
	return out
}

// add edits src; t must be the parse of src (lone CRs read as LF, so that
// offsets match) and set its directives.
//
// A line whose valid `# noqa: ...` directive lacks some codes gets them
// appended to it (", SGL002"), keeping what is written; a line with a bare
// `# noqa` needs nothing; any other line gets "  # noqa: CODES" after its
// last non-blank character, before its line ending, which is kept as it is
// (LF, CRLF or CR), like every other byte, so encodings and a BOM survive.
//
// Lines where a comment cannot go are skipped: one whose end lies inside a
// multi-line string, and one ending in a backslash continuation.
func add(src []byte, t *syntax.Tree, set *Set, want map[int][]string) ([]byte, int, []Skipped, error) {
	if len(src) != len(t.Src) {
		return nil, 0, nil, fmt.Errorf("source and tree differ in length (%d, %d bytes)", len(src), len(t.Src))
	}
	starts := syntax.LineStarts(t.Src)
	lines := make([]int, 0, len(want))
	for l := range want {
		lines = append(lines, l)
	}
	slices.Sort(lines)

	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	var skipped []Skipped
	for _, line := range lines {
		codes := slices.Compact(slices.Sorted(slices.Values(want[line])))
		if line < 1 || line > len(starts) || len(codes) == 0 {
			continue
		}
		start, end := lineBounds(t.Src, starts, line)
		if reason := cannotComment(t, start, end); reason != "" {
			skipped = append(skipped, Skipped{line, reason})
			continue
		}
		if d := lineDirective(set, line); d != nil {
			if d.Codes == nil {
				continue // a bare noqa covers every rule
			}
			var missing []string
			for _, c := range codes {
				if !slices.Contains(d.Codes, c) {
					missing = append(missing, c)
				}
			}
			if at, ok := directiveEnd(t.Src, start, d); ok {
				if len(missing) > 0 {
					edits = append(edits, edit{at, at, ", " + strings.Join(missing, ", ")})
				}
				continue
			}
		}
		trimmed := end
		for trimmed > start && (t.Src[trimmed-1] == ' ' || t.Src[trimmed-1] == '\t') {
			trimmed--
		}
		sep := "  "
		if trimmed == start {
			sep = ""
		}
		edits = append(edits, edit{trimmed, end, sep + "# noqa: " + strings.Join(codes, ", ")})
	}

	var out bytes.Buffer
	out.Grow(len(src) + 32*len(edits))
	prev := 0
	for _, e := range edits { // in line order, so in offset order
		out.Write(src[prev:e.from])
		out.WriteString(e.text)
		prev = e.to
	}
	out.Write(src[prev:])
	return out.Bytes(), len(edits), skipped, nil
}

// lineBounds returns the byte range of line's content, without its ending.
func lineBounds(src []byte, starts []uint32, line int) (int, int) {
	start, end := int(starts[line-1]), len(src)
	if line < len(starts) {
		end = int(starts[line]) - 1 // the '\n' (a lone CR reads as '\n' in the tree)
	}
	if end > start && src[end-1] == '\r' {
		end--
	}
	return start, end
}

// cannotComment says why a comment cannot end the line [start, end), or "".
func cannotComment(t *syntax.Tree, start, end int) string {
	inComment := false
	for i := 0; i < t.Len(); i++ {
		n := syntax.NodeID(i)
		s, e := t.StartByte(n), t.EndByte(n)
		if s > end {
			break // preorder: later nodes start later
		}
		switch t.Kind(n) {
		case syntax.String:
			if s < end && e > end {
				return "the line ends inside a multi-line string"
			}
		case syntax.Comment:
			if s <= end-1 && e >= end {
				inComment = true
			}
		}
	}
	if !inComment && end > start && t.Src[end-1] == '\\' {
		return "the line ends with a backslash continuation"
	}
	return ""
}

// lineDirective is the first valid line-level directive on line, if any.
func lineDirective(set *Set, line int) *Directive {
	if set == nil {
		return nil
	}
	for _, d := range set.byLine[line] {
		if !d.Invalid {
			return d
		}
	}
	return nil
}

// directiveEnd returns the byte offset just past d's text, checking that
// the text is where its position says.
func directiveEnd(src []byte, lineStart int, d *Directive) (int, bool) {
	at := lineStart
	for col := 1; col < d.Start.Column && at < len(src); col++ {
		_, size := utf8.DecodeRune(src[at:])
		at += size
	}
	if !bytes.HasPrefix(src[at:], []byte(d.Text)) {
		return 0, false
	}
	return at + len(d.Text), true
}
