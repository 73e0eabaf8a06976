package syntax

import "bytes"

// Generated files. A Python file of megabytes is a table or generated
// code, not code to lint: `TABLE = [(0, 'a', ...), ...]` of 21 MB is 8.7
// million nodes, for which tree-sitter's parse alone takes about 1.9 GB.
// Such a file is still parsed whole for its syntax, in batches, but the
// model keeps a bounded part of it:
//   - the inside of each huge bracketed literal is checked in batches of
//     elements and then blanked: the model holds `TABLE = [...]`;
//   - past the first modelBudget bytes of code, top-level statements are
//     checked in batches and blanked too: a generated module needs no flow
//     analysis.
// Every byte offset, line and column stays where it was, and a batch with
// a syntax error stays in the tree, so the error is reported where it is.

const (
	// bigSource is the size from which a file is treated as data: far
	// above hand-written code (sglang's largest module is about 200 KB).
	// flatten.go's SGL_ARENA_MAX must stay equal: such a file parses with
	// libc's allocator, not the arena.
	bigSource = 2 << 20
	// bigLiteral is the size of a bracketed region worth blanking.
	bigLiteral = 64 << 10
	// batchSize bounds the elements or statements parsed at once.
	batchSize = 128 << 10
	// modelBudget is the code a big file keeps in its tree (non-blank
	// bytes): tree-sitter takes about 100 bytes per byte of dense code.
	modelBudget = 256 << 10
)

// region is a bracket pair: src[open] is the opening bracket, src[close]
// the closing one.
type region struct{ open, close int }

// shrinkData returns src with the inside of its huge bracketed literals
// blanked as described above, or src itself when there is nothing to do
// or the source cannot be read with confidence (an unterminated string,
// unbalanced brackets): then it is parsed whole.
func (p *Parser) shrinkData(src []byte) []byte {
	regions, ok := bigRegions(src)
	if !ok {
		return src
	}
	out := bytes.Clone(src)
	var scratch []Node // one node buffer for every batch's check
	for _, r := range regions {
		kept := false
		for _, b := range batches(src, r) {
			if p.batchHasError(src[r.open], src[b.open:b.close], src[r.close], &scratch) {
				kept = true // left in place: the parse of the file reports it
				continue
			}
			blank(out[b.open:b.close])
		}
		if !kept {
			// A non-empty literal stays non-empty: `[...]`, `(...)`,
			// `{...: ...}` (a set becomes a dict; no rule reads either).
			placeholder := "..."
			if src[r.open] == '{' {
				placeholder = "...:..."
			}
			// In blanked spaces, not over a line break.
			if at := bytes.Index(out[r.open+1:r.close], bytes.Repeat([]byte{' '}, len(placeholder))); at >= 0 {
				copy(out[r.open+1+at:], placeholder)
			}
		}
	}
	p.shrinkStatements(out, &scratch)
	return out
}

// shrinkStatements blanks, in src (already shrunk of its literals), the
// top-level statements past the first modelBudget bytes of code, batch by
// batch, keeping a batch with a syntax error.
func (p *Parser) shrinkStatements(src []byte, scratch *[]Node) {
	starts := statementStarts(src)
	kept := 0
	first := len(starts)
	for i, st := range starts {
		end := len(src)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		kept += nonBlank(src[st:end])
		if kept > modelBudget {
			first = i
			break
		}
	}
	for i := first; i < len(starts); {
		j := i + 1
		for j < len(starts) && starts[j]-starts[i] < batchSize {
			j++
		}
		end := len(src)
		if j < len(starts) {
			end = starts[j]
		}
		b := src[starts[i]:end]
		if p.parsesClean(b, scratch) {
			blank(b)
		}
		i = j
	}
}

func nonBlank(b []byte) int {
	n := 0
	for _, c := range b {
		if c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			n++
		}
	}
	return n
}

// statementStarts are the offsets of the lines that start a top-level
// statement: at column 0, outside brackets and strings, not after a
// backslash continuation or a decorator, and not a clause of the
// statement before (else, elif, except, finally).
func statementStarts(src []byte) []int {
	var out []int
	lx := lexer{src: src}
	depth := 0
	var prev byte
	afterDecorator := false
	lineStart := func(at int) {
		if at >= len(src) {
			return
		}
		switch c := src[at]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '#':
			return
		case c == '@':
			if !afterDecorator {
				out = append(out, at)
			}
			afterDecorator = true
			return
		}
		for _, kw := range [][]byte{[]byte("else"), []byte("elif"), []byte("except"), []byte("finally")} {
			if bytes.HasPrefix(src[at:], kw) && (at+len(kw) == len(src) || !isWordByte(src[at+len(kw)])) {
				return
			}
		}
		if !afterDecorator {
			out = append(out, at)
		}
		afterDecorator = false
	}
	lineStart(0)
	for lx.i < len(src) {
		c, ok := lx.next()
		if !ok {
			return nil
		}
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '\n':
			if depth == 0 && prev != '\\' {
				lineStart(lx.i)
			}
		}
		if c != ' ' && c != '\t' && c != '\r' {
			prev = c
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// blank replaces every byte but line breaks with a space.
func blank(b []byte) {
	for i, c := range b {
		if c != '\n' && c != '\r' {
			b[i] = ' '
		}
	}
}

// batchHasError parses elements wrapped in their brackets: a call's for
// parentheses (`f(x=1, *a)`, `f(g for g in h)`, a tuple's elements alike).
func (p *Parser) batchHasError(open byte, elems []byte, close byte, scratch *[]Node) bool {
	src := make([]byte, 0, len(elems)+3)
	if open == '(' {
		src = append(src, 'f')
	}
	src = append(append(append(src, open), elems...), close)
	return !p.parsesClean(src, scratch)
}

// parsesClean reports whether src parses without an error, flattening
// into *scratch (grown as needed and kept): the batches of one file are
// checked one after another, and a fresh buffer for each cost five times
// the memory of the whole check.
func (p *Parser) parsesClean(src []byte, scratch *[]Node) bool {
	nodes, clean, err := parseFlat(p.mem, src, *scratch, &p.Timing)
	*scratch = nodes
	return err == nil && clean
}

// batches splits the inside of r at its top-level commas into runs of
// elements of about batchSize bytes, each ending after a comma (or at the
// closing bracket).
func batches(src []byte, r region) []region {
	var out []region
	start := r.open + 1
	lx := lexer{src: src, i: r.open + 1}
	depth := 0
	for lx.i < r.close {
		c, ok := lx.next()
		if !ok {
			break
		}
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 && lx.i-start >= batchSize {
				out = append(out, region{start, lx.i})
				start = lx.i
			}
		}
	}
	return append(out, region{start, r.close})
}

// bigRegions finds the outermost bracket pairs whose inside is at least
// bigLiteral bytes; ok is false when the source does not lex cleanly.
func bigRegions(src []byte) ([]region, bool) {
	var stack []int
	var out []region
	lx := lexer{src: src}
	for lx.i < len(src) {
		c, ok := lx.next()
		if !ok {
			return nil, false
		}
		switch c {
		case '(', '[', '{':
			stack = append(stack, lx.i-1)
		case ')', ']', '}':
			if len(stack) == 0 || !matches(src[stack[len(stack)-1]], c) {
				return nil, false
			}
			open := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if close := lx.i - 1; close-open-1 >= bigLiteral {
				// Inner pairs close first: an outer one replaces them.
				for len(out) > 0 && out[len(out)-1].open > open {
					out = out[:len(out)-1]
				}
				out = append(out, region{open, close})
			}
		}
	}
	return out, len(stack) == 0
}

func matches(open, close byte) bool {
	return open == '(' && close == ')' || open == '[' && close == ']' || open == '{' && close == '}'
}

// lexer steps over Python source a significant byte at a time: comments
// and string literals are skipped whole (their brackets and commas do not
// count). f-strings whose fields reuse the string's own quote (Python
// 3.12) are not understood; they end the string early, and the brackets
// then usually fail to balance, which makes the file parse whole.
type lexer struct {
	src []byte
	i   int
}

// next returns the next byte outside comments and strings; false on an
// unterminated string.
func (lx *lexer) next() (byte, bool) {
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		switch c {
		case '#':
			for lx.i < len(lx.src) && lx.src[lx.i] != '\n' {
				lx.i++
			}
			continue
		case '\'', '"':
			if !lx.skipString(c) {
				return 0, false
			}
			continue
		}
		lx.i++
		return c, true
	}
	return 0, true
}

// skipString moves past the string literal whose quote is at lx.i.
func (lx *lexer) skipString(q byte) bool {
	s := lx.src
	triple := lx.i+2 < len(s) && s[lx.i+1] == q && s[lx.i+2] == q
	if triple {
		lx.i += 3
	} else {
		lx.i++
	}
	for lx.i < len(s) {
		c := s[lx.i]
		switch {
		case c == '\\':
			lx.i += 2
		case c == q && !triple:
			lx.i++
			return true
		case c == q && lx.i+2 < len(s) && s[lx.i+1] == q && s[lx.i+2] == q:
			lx.i += 3
			return true
		case c == '\n' && !triple:
			return false
		default:
			lx.i++
		}
	}
	return false
}
