package syntaxerror

import (
	"strconv"

	"github.com/sglint/sglint/analyzer/syntax"
)

// What was expected, where the tokens tell it plainly. tree-sitter's error
// recovery often swallows an unclosed bracket or a header without its
// colon into an ERROR that starts elsewhere (the statement, or the next
// line); the tokens themselves say what CPython would: "'(' was never
// closed", "expected ':'". These checks read the leaves of the tree, which
// hold every token in source order, inside ERROR nodes too.

// token is one leaf of the tree, with the bracket depth before it.
type token struct {
	node      syntax.NodeID
	depth     int
	firstLine bool // the first token of its line
}

// tokens lists the leaves of t in source order, without comments and the
// zero-width tokens tree-sitter invented (MISSING).
func tokens(t *syntax.Tree) []token {
	var out []token
	depth, lastLine := 0, 0
	for i := 0; i < t.Len(); i++ {
		n := syntax.NodeID(i)
		if t.FirstChild(n) != syntax.NoNode || t.IsMissing(n) || t.Kind(n) == syntax.Comment || t.StartByte(n) == t.EndByte(n) {
			continue
		}
		line := t.Start(n).Line
		out = append(out, token{node: n, depth: depth, firstLine: line != lastLine})
		lastLine = t.End(n).Line
		if !t.IsNamed(n) {
			switch t.Text(n) {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth = max(0, depth-1)
			}
		}
	}
	return out
}

var closing = map[string]string{"(": ")", "[": "]", "{": "}"}

// unterminatedString reports a string opened and never closed (its start
// outside a string node: tree-sitter could not finish it) before the end
// of the first error e.
func unterminatedString(t *syntax.Tree, e syntax.NodeID) (problem, bool) {
	end := t.EndByte(e)
	for i := 0; i < t.Len(); i++ {
		n := syntax.NodeID(i)
		if t.StartByte(n) >= end {
			break
		}
		if t.Kind(n) == syntax.StringStart && t.Kind(t.Parent(n)) != syntax.String {
			return problem{node: n, message: "syntax error: unterminated string literal"}, true
		}
	}
	return problem{}, false
}

// bracketProblem reports a bracket that is never closed, a closing one that
// matches nothing or the wrong kind, when it lies before the end of the
// first error e: the parser went wrong there, or because of it.
func bracketProblem(t *syntax.Tree, toks []token, e syntax.NodeID) (problem, bool) {
	end := t.EndByte(e)
	var open []syntax.NodeID
	for _, tk := range toks {
		n := tk.node
		if t.IsNamed(n) {
			continue
		}
		text := t.Text(n)
		if _, ok := closing[text]; ok {
			open = append(open, n)
			continue
		}
		if text != ")" && text != "]" && text != "}" {
			continue
		}
		switch {
		case t.StartByte(n) >= end:
			// Past the first error: its own problem comes first.
		case len(open) == 0:
			return problem{node: n, message: "syntax error: unmatched " + quote(text)}, true
		case closing[t.Text(open[len(open)-1])] != text:
			o := open[len(open)-1]
			return problem{node: n, message: "syntax error: " + quote(text) + " does not match " + quote(t.Text(o)) + onLine(t, o, n)}, true
		}
		if len(open) > 0 {
			open = open[:len(open)-1]
		}
	}
	// The innermost bracket still open that starts before the error ends,
	// as CPython names the innermost.
	for i := len(open) - 1; i >= 0; i-- {
		if o := open[i]; t.StartByte(o) < end || t.StartByte(o) == end && t.IsMissing(e) {
			return problem{node: o, message: "syntax error: " + quote(t.Text(o)) + " was never closed"}, true
		}
	}
	return problem{}, false
}

// onLine names the line of o when it is not n's.
func onLine(t *syntax.Tree, o, n syntax.NodeID) string {
	if l := t.Start(o).Line; l != t.Start(n).Line {
		return " on line " + strconv.Itoa(l)
	}
	return ""
}

// compound are the keywords that start a statement whose header ends with a
// colon. tree-sitter may read them as identifiers inside an ERROR, so they
// are matched by text.
var compound = map[string]bool{
	"if": true, "elif": true, "else": true, "while": true, "for": true, "try": true, "except": true,
	"finally": true, "with": true, "def": true, "class": true, "async": true,
}

// missingColon reports the first compound statement inside the ERROR e
// whose header (its logical line) has no colon outside brackets. The place
// is the end of the header, where CPython says "expected ':'".
func missingColon(t *syntax.Tree, toks []token, e syntax.NodeID) (problem, bool) {
	if !t.IsError(e) {
		return problem{}, false
	}
	for i, tk := range toks {
		n := tk.node
		if n < e || n >= t.SubtreeEnd(e) || tk.depth > 0 || !tk.firstLine || !compound[t.Text(n)] {
			continue
		}
		last, colon := n, false
		for _, h := range toks[i+1:] {
			if h.depth == 0 && h.firstLine {
				break // the next logical line
			}
			if h.depth == 0 && !t.IsNamed(h.node) && t.Text(h.node) == ":" {
				colon = true
				break
			}
			last = h.node
		}
		if !colon {
			return problem{node: last, message: "syntax error: expected `:`", after: true}, true
		}
	}
	return problem{}, false
}
