package lsp

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// U+1F600 is one code point for the engine, four bytes of UTF-8 and two
// UTF-16 code units (a surrogate pair) for the protocol; é is one code
// point, two bytes, one unit.
const astral = "😀"

func TestFromEngineCountsUTF16Units(t *testing.T) {
	text := newLineText([]byte("s = '" + astral + "é" + astral + "'  # x\n" + astral + "y\n"))
	cases := []struct {
		line, col int
		want      Position
	}{
		{1, 1, Position{0, 0}},
		{1, 6, Position{0, 5}},  // just before the first emoji
		{1, 7, Position{0, 7}},  // after it: two units
		{1, 8, Position{0, 8}},  // after é: one unit
		{1, 9, Position{0, 10}}, // after the second emoji
		{1, 10, Position{0, 11}},
		{2, 2, Position{1, 2}},
		{2, 3, Position{1, 3}},
		{1, 99, Position{0, 16}}, // past the end of the line: its end, not the next line
		{3, 1, Position{2, 0}},   // the empty last line
		{9, 1, Position{2, 0}},   // past the last line: the end of the text
		{0, 5, Position{0, 0}},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, text.fromEngine(c.line, c.col), "%d:%d", c.line, c.col)
	}
}

func TestLineEndsCRLFAndLoneCR(t *testing.T) {
	// LF, CRLF and a lone CR each end a line, for the engine and the
	// protocol alike; the CR of a CRLF is not part of the line.
	text := newLineText([]byte("a = 1\r\nbé = 2\rc = " + astral + "\n\r\nd"))
	assert.Equal(t, Position{1, 4}, text.fromEngine(2, 5))
	assert.Equal(t, Position{1, 6}, text.fromEngine(2, 99), "a CRLF line ends before its CR")
	assert.Equal(t, Position{0, 5}, text.fromEngine(1, 99))
	assert.Equal(t, Position{2, 6}, text.fromEngine(3, 6))
	assert.Equal(t, Position{3, 0}, text.fromEngine(4, 3), "an empty CRLF line")
	assert.Equal(t, Position{4, 1}, text.fromEngine(5, 2))

	assert.Equal(t, 7, text.offset(Position{1, 0}))
	assert.Equal(t, 13, text.offset(Position{1, 5}), "b, é (two bytes), space, =, space")
	assert.Equal(t, 14, text.offset(Position{1, 99}), "past the end: before the lone CR")
	assert.Equal(t, 15, text.offset(Position{2, 0}))
	assert.Equal(t, len(text.src), text.offset(Position{9, 0}))
	assert.Equal(t, 0, text.offset(Position{-1, 3}))
}

func TestOffsetInsideSurrogatePairStopsBefore(t *testing.T) {
	text := newLineText([]byte("x" + astral + "y"))
	assert.Equal(t, 1, text.offset(Position{0, 1}))
	assert.Equal(t, 1, text.offset(Position{0, 2}), "the middle of the pair")
	assert.Equal(t, 5, text.offset(Position{0, 3}))
	assert.Equal(t, 6, text.offset(Position{0, 4}))
}

func TestInvalidUTF8CountsOneUnitPerByte(t *testing.T) {
	text := newLineText([]byte("a\xff\xfeb"))
	assert.Equal(t, Position{0, 3}, text.fromEngine(1, 4))
	assert.Equal(t, 3, text.offset(Position{0, 3}))
	assert.Equal(t, Position{0, 3}, text.fromOffset(3))
}

func TestFromOffsetRoundTrips(t *testing.T) {
	src := "é" + astral + "\r\nx\ry\n" + astral
	text := newLineText([]byte(src))
	for off := 0; off <= len(src); off++ {
		p := text.fromOffset(off)
		back := text.offset(p)
		assert.LessOrEqual(t, back, off, "offset %d -> %v", off, p)
		assert.Equal(t, p, text.fromOffset(back), "offset %d", off)
	}
	assert.Equal(t, Position{0, 3}, text.fromOffset(6))
	assert.Equal(t, Position{0, 3}, text.fromOffset(7), "between CR and LF: the end of the line")
	assert.Equal(t, Position{3, 2}, text.fromOffset(len(src)))
}

func TestApplyChange(t *testing.T) {
	r := func(l1, c1, l2, c2 int) *Range { return &Range{Position{l1, c1}, Position{l2, c2}} }
	cases := []struct {
		name, text string
		change     TextDocumentContentChangeEvent
		want       string
	}{
		{"full", "old\n", TextDocumentContentChangeEvent{Text: "new\n"}, "new\n"},
		{"insert", "ab\n", TextDocumentContentChangeEvent{Range: r(0, 1, 0, 1), Text: "X"}, "aXb\n"},
		{"after an emoji", astral + "ab", TextDocumentContentChangeEvent{Range: r(0, 2, 0, 3), Text: "Z"}, astral + "Zb"},
		{"across CRLF lines", "a\r\nb\r\nc", TextDocumentContentChangeEvent{Range: r(0, 1, 2, 0), Text: "-"}, "a-c"},
		{"lone CR", "a\rb", TextDocumentContentChangeEvent{Range: r(1, 0, 1, 1), Text: "c"}, "a\rc"},
		{"reversed range", "abcd", TextDocumentContentChangeEvent{Range: r(0, 3, 0, 1), Text: ""}, "ad"},
		{"past the end", "ab", TextDocumentContentChangeEvent{Range: r(5, 0, 6, 0), Text: "\ncd"}, "ab\ncd"},
		{"delete a line", "a\nb\nc\n", TextDocumentContentChangeEvent{Range: r(1, 0, 2, 0), Text: ""}, "a\nc\n"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, applyChange(c.text, c.change), c.name)
	}
}

func TestURIs(t *testing.T) {
	p, ok := uriPath("file:///tmp/a%20b/c%23.py")
	assert.True(t, ok)
	assert.Equal(t, "/tmp/a b/c#.py", p)
	assert.Equal(t, "file:///tmp/a%20b/c%23.py", pathURI(p))
	for _, bad := range []string{"untitled:Untitled-1", "git:/x.py?ref", "file://host/x.py", "file:", "::"} {
		_, ok := uriPath(bad)
		assert.False(t, ok, bad)
	}
	p, ok = uriPath("file://localhost/x/../y.py")
	assert.True(t, ok)
	assert.Equal(t, "/y.py", p)
}
