package lsp

import (
	"unicode/utf8"
)

// Positions: the engine counts 1-based lines and 1-based columns in Unicode
// code points; the protocol counts 0-based lines and characters in UTF-16
// code units, so a character outside the Basic Multilingual Plane (an
// emoji, U+1F600) is one column for the engine and two characters for the
// editor. Lines end at LF, CRLF or a lone CR for both (the engine reads a
// lone CR as LF, as Python does). A byte that is not UTF-8 counts as one
// of each, as editors show it as one replacement character.

// lineText indexes the lines of a text.
type lineText struct {
	src    []byte
	starts []int // byte offset of each line's start
}

func newLineText(src []byte) *lineText {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return &lineText{src: src, starts: starts}
}

// bounds returns the byte range of 0-based line's content, without its
// line ending; ok is false past the last line.
func (t *lineText) bounds(line int) (start, end int, ok bool) {
	if line < 0 || line >= len(t.starts) {
		return 0, 0, false
	}
	start, end = t.starts[line], len(t.src)
	if line+1 < len(t.starts) {
		end = t.starts[line+1]
	}
	for end > start && (t.src[end-1] == '\n' || t.src[end-1] == '\r') {
		end--
	}
	return start, end, true
}

// utf16Len is the number of UTF-16 code units of the rune decoded from
// size bytes.
func utf16Len(r rune, size int) int {
	if r >= 0x10000 && size == 4 {
		return 2
	}
	return 1
}

// fromEngine converts an engine position (1-based line, 1-based code-point
// column) to a protocol position. A column past the end of its line stops
// at the line's end; a line past the end of the text, at the text's end.
func (t *lineText) fromEngine(line, column int) Position {
	if line < 1 {
		return Position{}
	}
	start, end, ok := t.bounds(line - 1)
	if !ok {
		return t.fromOffset(len(t.src))
	}
	units := 0
	for i, col := start, 1; col < column && i < end; col++ {
		r, size := utf8.DecodeRune(t.src[i:end])
		units += utf16Len(r, size)
		i += size
	}
	return Position{Line: line - 1, Character: units}
}

// fromOffset converts a byte offset to a protocol position.
func (t *lineText) fromOffset(off int) Position {
	off = max(0, min(off, len(t.src)))
	line := 0
	for lo, hi := 0, len(t.starts)-1; lo <= hi; { // the last start <= off
		mid := (lo + hi) / 2
		if t.starts[mid] <= off {
			line, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	start, end, _ := t.bounds(line)
	units := 0
	for i := start; i < off && i < end; {
		r, size := utf8.DecodeRune(t.src[i:end])
		if i+size > off {
			break // inside a code point: the position before it
		}
		units += utf16Len(r, size)
		i += size
	}
	return Position{Line: line, Character: units}
}

// offset converts a protocol position to a byte offset. As the protocol
// says, a character past the end of the line means the line's end; a line
// past the last means the end of the text. A character inside a surrogate
// pair stops before the code point.
func (t *lineText) offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	start, end, ok := t.bounds(p.Line)
	if !ok {
		return len(t.src)
	}
	i, units := start, 0
	for i < end {
		r, size := utf8.DecodeRune(t.src[i:end])
		n := utf16Len(r, size)
		if units+n > p.Character {
			break
		}
		units += n
		i += size
	}
	return i
}

// applyChange applies one content change of didChange to text: a whole new
// text, or a range replaced (its ends swapped if the client sent them
// reversed).
func applyChange(text string, ch TextDocumentContentChangeEvent) string {
	if ch.Range == nil {
		return ch.Text
	}
	t := newLineText([]byte(text))
	from, to := t.offset(ch.Range.Start), t.offset(ch.Range.End)
	if to < from {
		from, to = to, from
	}
	return text[:from] + ch.Text + text[to:]
}
