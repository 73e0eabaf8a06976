// Package syntax parses Python with tree-sitter and exposes the result as a
// flat, immutable, pure-Go tree. The tree-sitter tree is copied in one cgo
// call and closed at once, so the rest of sglint never touches C memory and
// trees can be read from any number of goroutines.
package syntax

import (
	"bytes"
	"iter"
	"sort"
	"strings"
	"unicode/utf8"
)

// NodeID indexes a node in its Tree; nodes are stored in preorder, so a
// node's descendants are the IDs in (n, SubtreeEnd(n)).
type NodeID int32

// NoNode is the absent node (no parent, no such child).
const NoNode NodeID = -1

// Node is one syntax node. Its layout mirrors sgl_node in flatten.go. It
// holds 20 bytes, the bulk of a tree's memory; first child and next sibling
// follow from preorder (see FirstChild and NextSibling).
type Node struct {
	start, end uint32
	parent     NodeID
	subtreeEnd NodeID // one past the last descendant
	kind       Kind
	field      Field
	flags      uint8
}

const (
	flagNamed   = 1
	flagMissing = 2
	flagExtra   = 4
	flagError   = 8
)

// Tree is a parsed file: its source bytes and its nodes in preorder.
type Tree struct {
	Src        []byte
	nodes      []Node
	lineStarts []uint32 // byte offset of each line start, built at parse time (a lazy fill would race between readers)
	// clean is known absence of errors, hidden ones included (a missing
	// newline token is no node): what Reparse needs of an old tree.
	clean bool
}

// Len is the number of nodes.
func (t *Tree) Len() int { return len(t.nodes) }

// Root is the module node.
func (t *Tree) Root() NodeID {
	if len(t.nodes) == 0 {
		return NoNode
	}
	return 0
}

// node returns n's record, or an absent node (no kind, no relatives,
// empty text) for NoNode or an ID out of range: accessors are total, so
// code walking a partial tree (a missing field is NoNode) cannot panic.
func (t *Tree) node(n NodeID) *Node {
	if uint(n) < uint(len(t.nodes)) {
		return &t.nodes[n]
	}
	return &absentNode
}

var absentNode = Node{parent: NoNode, subtreeEnd: NoNode}

func (t *Tree) Kind(n NodeID) Kind      { return t.node(n).kind }
func (t *Tree) FieldOf(n NodeID) Field  { return t.node(n).field }
func (t *Tree) Parent(n NodeID) NodeID  { return t.node(n).parent }
func (t *Tree) StartByte(n NodeID) int  { return int(t.node(n).start) }
func (t *Tree) EndByte(n NodeID) int    { return int(t.node(n).end) }
func (t *Tree) IsNamed(n NodeID) bool   { return t.node(n).flags&flagNamed != 0 }
func (t *Tree) IsMissing(n NodeID) bool { return t.node(n).flags&flagMissing != 0 }
func (t *Tree) IsExtra(n NodeID) bool   { return t.node(n).flags&flagExtra != 0 }

// FirstChild is n's first child (named or not), or NoNode. In preorder it
// is the node right after n, if that node's parent is n.
func (t *Tree) FirstChild(n NodeID) NodeID {
	if uint(n) >= uint(len(t.nodes)) {
		return NoNode
	}
	return t.firstChild(n)
}

func (t *Tree) firstChild(n NodeID) NodeID {
	if c := n + 1; int(c) < len(t.nodes) && t.nodes[c].parent == n {
		return c
	}
	return NoNode
}

// NextSibling is the child of n's parent that follows n, or NoNode. In
// preorder it is the node right after n's subtree, if it has n's parent.
func (t *Tree) NextSibling(n NodeID) NodeID {
	if uint(n) >= uint(len(t.nodes)) {
		return NoNode
	}
	return t.nextSibling(n)
}

func (t *Tree) nextSibling(n NodeID) NodeID {
	x := &t.nodes[n]
	if s := x.subtreeEnd; int(s) < len(t.nodes) && t.nodes[s].parent == x.parent {
		return s
	}
	return NoNode
}

// Clean reports a tree known to have no error, hidden ones included (a
// missing token the walk does not see): a fresh parse always knows.
func (t *Tree) Clean() bool { return t.clean }

// IsError reports an ERROR node (tree-sitter's recovery wrapper).
func (t *Tree) IsError(n NodeID) bool { return t.node(n).flags&flagError != 0 }

// Text is the source text of n.
func (t *Tree) Text(n NodeID) string { return string(t.Bytes(n)) }

// Bytes is the source of n without copying.
func (t *Tree) Bytes(n NodeID) []byte {
	x := t.node(n)
	return t.Src[x.start:x.end]
}

// TextIs compares n's text with s without allocating.
func (t *Tree) TextIs(n NodeID, s string) bool {
	b := t.Bytes(n)
	return len(b) == len(s) && string(b) == s
}

// Children iterates over all children of n, named or not.
func (t *Tree) Children(n NodeID) iter.Seq[NodeID] {
	return func(yield func(NodeID) bool) {
		for c := t.FirstChild(n); c != NoNode; c = t.nextSibling(c) {
			if !yield(c) {
				return
			}
		}
	}
}

// NamedChildren iterates over the named children of n, skipping comments.
func (t *Tree) NamedChildren(n NodeID) iter.Seq[NodeID] {
	return func(yield func(NodeID) bool) {
		for c := t.FirstChild(n); c != NoNode; c = t.nextSibling(c) {
			if t.nodes[c].flags&flagNamed == 0 || t.nodes[c].kind == Comment {
				continue
			}
			if !yield(c) {
				return
			}
		}
	}
}

// NamedChild returns the i-th named, non-comment child of n.
func (t *Tree) NamedChild(n NodeID, i int) NodeID {
	for c := range t.NamedChildren(n) {
		if i == 0 {
			return c
		}
		i--
	}
	return NoNode
}

// Field returns the first child of n stored under field f.
func (t *Tree) Field(n NodeID, f Field) NodeID {
	for c := t.FirstChild(n); c != NoNode; c = t.nextSibling(c) {
		if t.nodes[c].field == f {
			return c
		}
	}
	return NoNode
}

// FieldAll iterates over every child of n stored under field f.
func (t *Tree) FieldAll(n NodeID, f Field) iter.Seq[NodeID] {
	return func(yield func(NodeID) bool) {
		for c := t.FirstChild(n); c != NoNode; c = t.nextSibling(c) {
			if t.nodes[c].field == f && !yield(c) {
				return
			}
		}
	}
}

// SubtreeEnd is one past the last descendant of n: preorder makes the
// subtree of n the contiguous range [n, SubtreeEnd(n)). For NoNode the
// range is empty.
func (t *Tree) SubtreeEnd(n NodeID) NodeID {
	if uint(n) >= uint(len(t.nodes)) {
		return n
	}
	return t.nodes[n].subtreeEnd
}

// Contains reports whether d lies in the subtree of n (n included).
func (t *Tree) Contains(n, d NodeID) bool { return d >= n && d < t.SubtreeEnd(n) }

// Ancestor returns the nearest proper ancestor of n whose kind is one of ks.
func (t *Tree) Ancestor(n NodeID, ks ...Kind) NodeID {
	for p := t.node(n).parent; p != NoNode; p = t.nodes[p].parent {
		for _, k := range ks {
			if t.nodes[p].kind == k {
				return p
			}
		}
	}
	return NoNode
}

// Unparen strips parentheses around an expression.
func (t *Tree) Unparen(n NodeID) NodeID {
	if uint(n) >= uint(len(t.nodes)) {
		return NoNode
	}
	for n != NoNode && t.nodes[n].kind == ParenthesizedExpression {
		n = t.NamedChild(n, 0)
	}
	return n
}

// ParenTop climbs from n out of the parentheses around it: the outermost
// parenthesized expression holding n, or n itself. Unparen goes down.
func (t *Tree) ParenTop(n NodeID) NodeID {
	for t.Kind(t.Parent(n)) == ParenthesizedExpression {
		n = t.Parent(n)
	}
	return n
}

// ConstantIndex reports a subscript whose key is an integer literal,
// possibly negated (`x[0]`, `x[(-1)]`): the index that fails on an empty
// sequence, where a slice or a computed key may rightly do nothing.
func (t *Tree) ConstantIndex(subscript NodeID) bool {
	if t.Kind(subscript) != Subscript {
		return false
	}
	key := t.Unparen(t.Field(subscript, FSubscript))
	if t.Kind(key) == UnaryOperator {
		key = t.Unparen(t.Field(key, FArgument))
	}
	return t.Kind(key) == Integer
}

// Position is a 1-based line and a 1-based column counted in Unicode code
// points (what editors and SARIF's "unicodeCodePoints" column kind expect).
type Position struct {
	Line, Column int
}

// Pos converts a byte offset into a Position.
func (t *Tree) Pos(offset int) Position {
	return PosIn(t.Src, t.lineStarts, offset)
}

// Start and End are the positions of n's first byte and one past its last.
func (t *Tree) Start(n NodeID) Position { return t.Pos(int(t.node(n).start)) }
func (t *Tree) End(n NodeID) Position   { return t.Pos(int(t.node(n).end)) }

// LineStarts returns the byte offset at which each line of src begins.
func LineStarts(src []byte) []uint32 { return appendLineStarts(make([]uint32, 0, 64), src) }

// appendLineStarts appends the line starts of src to starts[:0].
func appendLineStarts(starts []uint32, src []byte) []uint32 {
	starts = append(starts[:0], 0)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, uint32(i))
	}
}

// Line returns the text of the 1-based line, without its line ending.
func (t *Tree) Line(line int) string { return LineIn(t.Src, t.lineStarts, line) }

// LineIn returns the text of the 1-based line of src, whose line starts
// are starts (see LineStarts), without its line ending.
func LineIn(src []byte, starts []uint32, line int) string {
	if line < 1 || line > len(starts) {
		return ""
	}
	start := starts[line-1]
	end := uint32(len(src))
	if line < len(starts) {
		end = starts[line] - 1
	}
	return strings.TrimSuffix(string(src[start:end]), "\r")
}

// PosIn converts offset using precomputed line starts. Invalid UTF-8 bytes
// count as one column each.
func PosIn(src []byte, starts []uint32, offset int) Position {
	if offset > len(src) {
		offset = len(src)
	}
	line := sort.Search(len(starts), func(i int) bool { return int(starts[i]) > offset }) - 1
	if line < 0 {
		line = 0
	}
	col := utf8.RuneCount(src[starts[line]:offset])
	return Position{Line: line + 1, Column: col + 1}
}
