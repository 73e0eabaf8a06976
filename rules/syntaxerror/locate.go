package syntaxerror

import (
	"strings"

	"github.com/sglint/sglint/analyzer/syntax"
)

// A problem is where SGL000 reports and what it says.
type problem struct {
	node    syntax.NodeID // reported span; zero-width for a MISSING token
	message string
	after   bool // report the empty span just after node (a missing colon)
}

// locate finds the first syntax error of t (ok=false if there is none).
//
// What the tokens tell plainly comes first (expected.go): a string never
// closed, a bracket never closed or closed by the wrong one, a compound
// statement's header without its colon. Then tree-sitter's own marks, in two ways. A MISSING node is a token it invented
// to finish a construct (a closing bracket, a colon): it is reported where
// the token was expected. An ERROR node wraps what it could not fit into the
// tree: tokens it skipped, and often a valid prefix it abandoned
// (`x = (1, 2` before the stray `y`). Inside an ERROR, in this order:
//  1. an operand that directly follows another operand, with no operator or
//     delimiter between them (`f(a b)`, `(1, 2 y`), is the unexpected token,
//     unless a missing or unreadable token (`$`) comes before it;
//  2. else a nested ERROR or MISSING node is more precise: look there;
//  3. else an ERROR of one token or operand (`x = = 1`) is that token;
//  4. else the region as a whole could not be parsed: report its start.
func locate(t *syntax.Tree) (problem, bool) {
	e := FirstError(t)
	if e == syntax.NoNode {
		return problem{}, false
	}
	if p, ok := unterminatedString(t, e); ok {
		return p, true
	}
	toks := tokens(t)
	if p, ok := bracketProblem(t, toks, e); ok {
		return p, true
	}
	if p, ok := missingColon(t, toks, e); ok {
		return p, true
	}
	for {
		if t.IsMissing(e) {
			return problem{node: e, message: "syntax error: expected " + describeMissing(t, e)}, true
		}
		if t.FirstChild(e) == syntax.NoNode { // a token the lexer could not read
			return problem{node: e, message: "syntax error: unexpected " + quote(t.Text(e))}, true
		}
		inner := firstErrorIn(t, e)
		if j := juxtaposed(t, e); j != syntax.NoNode && (inner == syntax.NoNode || j < inner || !hasBadToken(t, inner)) {
			return problem{node: j, message: "syntax error: unexpected " + quote(t.Text(j))}, true
		}
		if inner != syntax.NoNode {
			e = inner
			continue
		}
		if only := onlyChild(t, e); only != syntax.NoNode {
			return problem{node: only, message: "syntax error: unexpected " + quote(t.Text(only))}, true
		}
		return problem{node: e, message: "syntax error: cannot parse " + quote(regionText(t, e))}, true
	}
}

// juxtaposed returns the first child of the ERROR node e that follows an
// operand directly, counting e's previous sibling; NoNode if none does.
// Named nodes are operands; anonymous tokens are operators, delimiters and
// keywords.
func juxtaposed(t *syntax.Tree, e syntax.NodeID) syntax.NodeID {
	prevOperand := false
	if p := t.Parent(e); p != syntax.NoNode {
		for c := range t.Children(p) {
			if c == e {
				break
			}
			if t.Kind(c) != syntax.Comment {
				prevOperand = t.IsNamed(c) && !t.IsMissing(c)
			}
		}
	}
	for c := range t.Children(e) {
		if t.Kind(c) == syntax.Comment {
			continue
		}
		operand := t.IsNamed(c)
		if operand && prevOperand {
			return c
		}
		prevOperand = operand
	}
	return syntax.NoNode
}

// hasBadToken reports whether the subtree of n holds a MISSING token or an
// unreadable one: errors more precise than any juxtaposition after them.
func hasBadToken(t *syntax.Tree, n syntax.NodeID) bool {
	for m := n; m < t.SubtreeEnd(n); m++ {
		if t.IsMissing(m) || t.IsError(m) && t.FirstChild(m) == syntax.NoNode {
			return true
		}
	}
	return false
}

// firstErrorIn returns the first ERROR or MISSING node strictly inside e.
func firstErrorIn(t *syntax.Tree, e syntax.NodeID) syntax.NodeID {
	for n := e + 1; n < t.SubtreeEnd(e); n++ {
		if t.IsError(n) || t.IsMissing(n) {
			return n
		}
	}
	return syntax.NoNode
}

// onlyChild returns the single non-comment child of e, or NoNode.
func onlyChild(t *syntax.Tree, e syntax.NodeID) syntax.NodeID {
	only := syntax.NoNode
	for c := range t.Children(e) {
		if t.Kind(c) == syntax.Comment {
			continue
		}
		if only != syntax.NoNode {
			return syntax.NoNode
		}
		only = c
	}
	return only
}

// describeMissing names a missing token: `)` or `in` for punctuation and
// keywords, the grammar's name for a named node ("an identifier").
func describeMissing(t *syntax.Tree, n syntax.NodeID) string {
	name := t.Kind(n).String()
	if t.IsNamed(n) {
		name = strings.ReplaceAll(name, "_", " ")
		if strings.ContainsRune("aeiou", rune(name[0])) {
			return "an " + name
		}
		return "a " + name
	}
	return "`" + name + "`"
}

// regionText is the source of e without the comments it swallowed.
func regionText(t *syntax.Tree, e syntax.NodeID) string {
	var b strings.Builder
	last := t.StartByte(e)
	for n := e; n < t.SubtreeEnd(e); n++ {
		if t.Kind(n) == syntax.Comment {
			b.Write(t.Src[last:t.StartByte(n)])
			last = t.EndByte(n)
		}
	}
	b.Write(t.Src[last:t.EndByte(e)])
	return strings.TrimSpace(b.String())
}

// quote shows source text in backquotes: its first line, at most 20
// characters.
func quote(text string) string {
	cut := false
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		text, cut = strings.TrimRight(text[:i], " \t"), true
	}
	if r := []rune(text); len(r) > 20 {
		text, cut = string(r[:20]), true
	}
	if cut {
		text += "…"
	}
	if strings.TrimSpace(text) == "" {
		return "end of input"
	}
	return "`" + text + "`"
}
