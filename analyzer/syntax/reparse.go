package syntax

import (
	"bytes"
	"slices"
	"time"
)

// Reparsing an edited file parses only the statements the edit touched,
// in a synthetic source that puts them back in the same context, and
// splices their nodes into the old tree. The result must equal a parse of
// the whole new file, node for node; when that cannot be argued, Reparse
// parses the whole file.
//
// Why a piece parsed alone gives the whole file's nodes. A piece runs from
// the line of a statement S to the line of a later statement T, both
// children of the same statement list L (the module, or the body block of a
// class or function), both the first token on their line; the edit lies
// after S's first byte and before T's line. At the start of such a line
// tree-sitter-python's state is the same whatever came before: no bracket
// or string open, the indentation stack that of L's enclosing blocks, and
// the parser expecting a statement of L. The synthetic source recreates
// that: one "class _:" header per enclosing block, each indented as the
// real one is, then the piece, then a "pass" statement indented as T. The
// sentinel stands for T: where a comment between the last statement and T
// goes (into the last statement's block or into L) depends only on the
// indentation of the next line that is not a comment, which is T's. After
// T, the new file is the old one shifted, read from the same state, so the
// old nodes from T on stay, moved by the edit's size. A piece at module
// level may instead run to the end of the file, which then needs no
// sentinel.
//
// What is refused (the whole file is parsed): an old tree with an error,
// hidden ones included (tree-sitter recovers from "f(a)zz" with a missing
// newline token, which is no node); an edit that starts at or before the
// first byte of the module's first statement; S or T not first on its
// line, on a continued line, or at another indentation than the first
// statement of L (tree-sitter ignores an unexpected indent without an
// error, so L may hold statements it reads differently alone); a piece
// whose parse has an error, whose sentinel is swallowed (an unclosed
// bracket or string, a continuation line) or whose shape is not the one
// expected. The differential tests compare splices with full parses, on
// fixtures and on random edits of real files.

// Edit is where two versions of a source differ: the bytes before Start
// and after OldEnd (old) or NewEnd (new) are the same in both.
type Edit struct {
	Start, OldEnd, NewEnd int
	// lines: the edit is whole lines followed by a line, so the old
	// version's byte before OldEnd is a line feed, and joins says whether
	// the last old line changed ended with a backslash before it (lineDiff
	// knows both; Diff, which has the bytes, leaves them false).
	lines, joins bool
}

// Diff returns the edit that turns old into src: their common prefix and
// suffix, not overlapping.
func Diff(old, src []byte) Edit {
	n := min(len(old), len(src))
	p := 0
	for p < n && old[p] == src[p] {
		p++
	}
	s := 0
	for s < n-p && old[len(old)-1-s] == src[len(src)-1-s] {
		s++
	}
	return Edit{Start: p, OldEnd: len(old) - s, NewEnd: len(src) - s}
}

// Reparse parses src, the new version of old's source, reusing old's
// nodes outside the statements the edit touched when it can. The result
// equals Parse(src). old is not modified.
func (p *Parser) Reparse(old *Tree, src []byte) (*Tree, error) {
	if old != nil && old.clean && len(src) <= bigSource { // a data file's tree is not its source's
		if t := p.splice(old.nodes, Diff(old.Src, src), src, LineStarts(src)); t != nil {
			return t, nil
		}
	}
	return p.Parse(src)
}

// sentinel is the statement that stands for T after a piece.
const sentinel = "pass\n"

// piece is the part of the old tree a reparse replaces: the nodes
// [first, end) in preorder, children (and their subtrees) of list, whose
// source starts at byte from and runs to byte to of the new source.
type piece struct {
	list     NodeID
	first    NodeID
	end      NodeID // len(nodes) when the piece runs to the end of the file
	from, to int
	headers  []byte // the synthetic enclosing blocks
	sentinel []byte // T's indentation and the sentinel; nil at the end of the file
	depth    int
}

// splice returns the tree of src (whose line starts are starts) rebuilt
// from old's nodes, of a clean tree of the old version, and a parse of the
// piece the edit touched; nil when the whole file must be parsed.
func (p *Parser) splice(old []Node, e Edit, src []byte, starts []uint32) *Tree {
	if p.mem.a == nil || len(old) == 0 || old[0].kind != Module {
		return nil
	}
	pc, ok := choosePiece(&Tree{nodes: old}, e, src)
	if !ok {
		return nil
	}
	synth := make([]byte, 0, len(pc.headers)+pc.to-pc.from+len(pc.sentinel))
	synth = append(synth, pc.headers...)
	synth = append(synth, src[pc.from:pc.to]...)
	synth = append(synth, pc.sentinel...)
	nodes, clean, err := parseFlat(p.mem, synth, nil, &p.Timing)
	if err != nil || !clean {
		return nil
	}
	t0 := time.Now()
	defer func() { p.Timing.Flatten += time.Since(t0) }() // the splice is counted with copying trees
	out := spliceNodes(old, nodes, pc, e, len(src))
	if out == nil {
		return nil
	}
	p.Timing.Files++
	p.Timing.Spliced++
	p.Timing.Nodes += int64(len(out))
	return &Tree{Src: src, nodes: out, lineStarts: starts, clean: true}
}

// choosePiece finds the smallest piece that holds the edit: it starts at
// the module and goes into the body of the class or function the edit
// lies in, while the edit stays between two statements of that body.
func choosePiece(old *Tree, e Edit, src []byte) (piece, bool) {
	delta := e.NewEnd - e.OldEnd
	var best piece
	found := false
	var headers []byte
	list := old.Root()
	for depth := 0; ; depth++ {
		// S: the last statement starting before the edit; T: the first
		// starting after it.
		s, t := NoNode, NoNode
		for c := old.firstStmt(list); c != NoNode; c = old.nextStmt(c) {
			if int(old.nodes[c].start) < e.Start {
				s = c
			} else if t == NoNode && int(old.nodes[c].start) >= e.OldEnd {
				t = c
				break
			}
		}
		if s == NoNode || (t == NoNode && depth > 0) {
			break
		}
		// tree-sitter-python ignores an indentation it does not expect
		// (no error, no node), so a list can hold statements at several
		// indentations. Its own is that of its first statement, which
		// opened the block; S and T must have it.
		indent := old.listIndent(list, src)
		sLine, ok := lineOf(src, int(old.nodes[s].start))
		if !ok || indent == nil || !bytes.Equal(src[sLine:old.nodes[s].start], indent) {
			break
		}
		pc := piece{list: list, first: s, end: NodeID(len(old.nodes)), from: sLine, to: len(src),
			headers: headers, depth: depth}
		if t != NoNode {
			tStart := int(old.nodes[t].start) + delta
			tLine, ok := lineOf(src, tStart)
			// T's indentation unchanged, and T first on its line in the old
			// version too.
			if !ok || tLine < e.NewEnd || !oldLineStart(src, e, tLine-delta) ||
				!bytes.Equal(src[tLine:tStart], indent) {
				break
			}
			pc.end, pc.to = t, tLine
			pc.sentinel = append(bytes.Clone(src[tLine:tStart]), sentinel...)
		}
		best, found = pc, true
		// Into S's body, when the edit lies inside S alone. The next
		// round checks that a statement of the body starts the piece.
		if old.nextStmt(s) != t {
			break
		}
		body := old.defBody(s)
		if body == NoNode {
			break
		}
		headers = append(append(slices.Clip(headers), src[sLine:old.nodes[s].start]...), "class _:\n"...)
		list = body
	}
	return best, found
}

// listIndent returns the indentation of the first statement of list (the
// module's is empty), nil if that statement is not first on its line.
func (t *Tree) listIndent(list NodeID, src []byte) []byte {
	if list == t.Root() {
		return []byte{}
	}
	first := t.firstStmt(list)
	if first == NoNode {
		return nil
	}
	line, ok := lineOf(src, int(t.nodes[first].start))
	if !ok {
		return nil
	}
	return src[line:t.nodes[first].start]
}

// firstStmt is the first statement of list, skipping comments.
func (t *Tree) firstStmt(list NodeID) NodeID { return t.stmtFrom(t.FirstChild(list)) }

// nextStmt is the statement after s in its list, skipping comments.
func (t *Tree) nextStmt(s NodeID) NodeID { return t.stmtFrom(t.nextSibling(s)) }

// stmtFrom is c or the first sibling after it that is not a comment.
func (t *Tree) stmtFrom(c NodeID) NodeID {
	for c != NoNode && t.IsExtra(c) {
		c = t.nextSibling(c)
	}
	return c
}

// defBody returns the body block of s, a class or function definition
// (decorated or not); else NoNode.
func (t *Tree) defBody(s NodeID) NodeID {
	def := s
	if t.Kind(def) == DecoratedDefinition {
		def = t.Field(def, FDefinition)
	}
	if k := t.Kind(def); k != ClassDefinition && k != FunctionDefinition {
		return NoNode
	}
	if body := t.Field(def, FBody); t.Kind(body) == Block {
		return body
	}
	return NoNode
}

// lineOf returns the start of the line of the token at offset when only
// spaces and tabs precede it there and the line does not continue another
// (a backslash before its line feed); ok false otherwise.
func lineOf(src []byte, offset int) (int, bool) {
	i := offset
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i == 0 {
		return 0, true
	}
	at := func(j int) byte { return src[j] }
	return i, lineBreakAt(at, i)
}

// lineBreakAt reports whether a line starts at i > 0 that does not
// continue the one before: a line feed at i-1, no backslash before it. at
// returns the byte at j, or 0 when it is not known.
func lineBreakAt(at func(int) byte, i int) bool {
	if at(i-1) != '\n' {
		return false
	}
	j := i - 1
	if j == 0 {
		return true
	}
	b := at(j - 1)
	if b == '\r' && j > 1 {
		b = at(j - 2)
	}
	return b != '\\' && b != 0
}

// oldLineStart reports whether a line started at oldPos in the old
// version, reading its bytes from src where the edit left them (0 where
// it did not: then no).
func oldLineStart(src []byte, e Edit, oldPos int) bool {
	at := func(j int) byte {
		switch {
		case j < 0:
			return 0
		case j < e.Start:
			return src[j]
		case j >= e.OldEnd:
			return src[j+e.NewEnd-e.OldEnd]
		case e.lines && j == e.OldEnd-1:
			return '\n'
		case e.lines && j == e.OldEnd-2 && e.OldEnd-1 > e.Start:
			// The last old line changed, before its line break: only
			// whether it is a backslash matters to lineBreakAt.
			if e.joins {
				return '\\'
			}
			return ' '
		}
		return 0
	}
	return oldPos > 0 && lineBreakAt(at, oldPos)
}

// spliceNodes checks the piece's parse (nodes, of the synthetic source)
// and builds the new tree's nodes: the old ones before the piece, the
// piece's, and the old ones after it, moved. nil if the parse is not the
// expected shape.
func spliceNodes(old, nodes []Node, pc piece, e Edit, size int) []Node {
	if len(nodes) == 0 {
		return nil
	}
	pt := &Tree{nodes: nodes}
	// Down the headers: each holds one class whose body holds the next.
	list := pt.Root()
	for range pc.depth {
		c := pt.FirstChild(list)
		if c == NoNode || pt.nextSibling(c) != NoNode || pt.Kind(c) != ClassDefinition {
			return nil
		}
		body := pt.Field(c, FBody)
		if pt.Kind(body) != Block || pt.nextSibling(body) != NoNode {
			return nil
		}
		list = body
	}
	first := list + 1
	head := len(pc.headers)
	if int(first) >= len(nodes) || nodes[first].parent != list || int(nodes[first].start) != head+int(old[pc.first].start)-pc.from {
		return nil
	}
	end := NodeID(len(nodes)) // one past the piece's nodes
	if pc.sentinel != nil {
		var last NodeID = NoNode
		for c := first; c != NoNode; c = pt.nextSibling(c) {
			last = c
		}
		at := head + pc.to - pc.from + len(pc.sentinel) - len(sentinel)
		if last == NoNode || last == first || nodes[last].kind != PassStatement ||
			int(nodes[last].start) != at || int(nodes[last].end) != at+len("pass") || nodes[last].subtreeEnd != NodeID(len(nodes)) {
			return nil
		}
		end = last
	}
	k := int(end - first)
	oldLen := int(pc.end - pc.first)
	dn := NodeID(k - oldLen)
	delta := uint32(e.NewEnd - e.OldEnd)
	shift := uint32(pc.from - head)
	out := make([]Node, 0, len(old)+int(dn))
	out = append(out, old[:pc.first]...)
	// The piece's ancestors: their subtrees hold it.
	for a := pc.list; a != NoNode; a = old[a].parent {
		x := &out[a]
		if x.subtreeEnd < pc.end {
			return nil
		}
		x.subtreeEnd += dn
		x.end += delta // unsigned arithmetic: a shrink wraps and comes back
	}
	if pc.sentinel == nil {
		out[0].end = nodes[0].end + shift
	}
	base := pc.first - first
	for _, x := range nodes[first:end] {
		x.start += shift
		x.end += shift
		if x.parent == list {
			x.parent = pc.list
		} else {
			x.parent += base
		}
		x.subtreeEnd += base
		out = append(out, x)
	}
	for _, x := range old[pc.end:] {
		x.start += delta
		x.end += delta
		if x.parent >= pc.end {
			x.parent += dn
		}
		x.subtreeEnd += dn
		out = append(out, x)
	}
	if int(out[0].end) > size {
		return nil
	}
	return out
}
