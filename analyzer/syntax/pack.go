package syntax

import (
	"encoding/binary"
	"errors"
	"slices"
)

// Pack appends a compact encoding of t's nodes to dst: about 6 bytes a
// node instead of 20, and rebuilt by Unpack some hundred times faster than
// parsing again. The source is not included: Unpack takes it.
//
// The count of nodes comes first, shifted left by one, with the tree's
// clean bit (see Tree.clean). Each node, in preorder, is four unsigned
// varints and a byte:
//
//	field<<3 | missing<<2 | extra<<1 | error   (error: the kind is tree-sitter's ERROR)
//	kind                                       (absent for ERROR)
//	start - previous node's start              (preorder starts never decrease)
//	end - start
//	subtree end - node index
//
// Parents are not stored: in preorder a node's parent is the nearest
// earlier node whose subtree has not ended yet.
func (t *Tree) Pack(dst []byte) []byte {
	canonical, _ := symbols()
	dst = slices.Grow(dst, 10+6*len(t.nodes))
	count := uint64(len(t.nodes)) << 1
	if t.clean {
		count |= 1
	}
	dst = binary.AppendUvarint(dst, count)
	prev := uint32(0)
	for i := range t.nodes {
		x := &t.nodes[i]
		head := uint32(x.field) << 3
		if x.flags&flagMissing != 0 {
			head |= 4
		}
		if x.flags&flagExtra != 0 {
			head |= 2
		}
		isErr := x.flags&flagError != 0 && int(x.kind) >= len(canonical)
		if isErr {
			head |= 1
		}
		dst = appendUvarint(dst, head)
		if !isErr {
			dst = appendUvarint(dst, uint32(x.kind))
		}
		dst = appendUvarint(dst, x.start-prev)
		dst = appendUvarint(dst, x.end-x.start)
		dst = appendUvarint(dst, uint32(int(x.subtreeEnd)-i))
		prev = x.start
	}
	return dst
}

// appendUvarint is binary.AppendUvarint with the one-byte case inlined:
// most values packed are small.
func appendUvarint(dst []byte, v uint32) []byte {
	if v < 0x80 {
		return append(dst, byte(v))
	}
	return binary.AppendUvarint(dst, uint64(v))
}

var errPacked = errors.New("syntax: malformed packed tree")

// Unpack rebuilds the tree of src packed by Pack (from the same source). It
// checks what it reads, so that damaged data gives an error, never a tree
// with out-of-range positions or relatives.
func Unpack(src, packed []byte) (*Tree, error) {
	nodes, clean, err := unpackNodes(len(src), packed)
	if err != nil {
		return nil, err
	}
	return &Tree{Src: src, nodes: nodes, lineStarts: LineStarts(src), clean: clean}, nil
}

// unpackNodes decodes the nodes Pack wrote for a source of size bytes.
func unpackNodes(size int, packed []byte) (nodes []Node, clean bool, err error) {
	canonical, symbolFlags := symbols()
	r := reader{b: packed}
	count := r.uvarint()
	n := count >> 1
	if r.bad || n > uint64(len(packed))/4 { // every node takes at least 4 bytes
		return nil, false, errPacked
	}
	nodes = make([]Node, n)
	clean = true
	var open []NodeID // nodes whose subtree is still open, innermost last
	prev := uint64(0)
	for i := range nodes {
		x := &nodes[i]
		head := r.uvarint()
		field := head >> 3
		var kind uint64 = 0xFFFF
		flags := uint8(0)
		if head&1 != 0 {
			flags = flagNamed | flagError
		} else {
			kind = r.uvarint()
			if kind >= uint64(len(canonical)) || Kind(kind) != canonical[kind] {
				return nil, false, errPacked
			}
			flags = symbolFlags[kind]
		}
		if head&4 != 0 {
			flags |= flagMissing
		}
		if head&2 != 0 {
			flags |= flagExtra
		}
		start := prev + r.uvarint()
		end := start + r.uvarint()
		sub := uint64(i) + r.uvarint()
		if r.bad || field > 255 || end > uint64(size) || sub <= uint64(i) || sub > n {
			return nil, false, errPacked
		}
		clean = clean && flags&(flagError|flagMissing) == 0 // a damaged clean bit cannot lie

		for len(open) > 0 && nodes[open[len(open)-1]].subtreeEnd <= NodeID(i) {
			open = open[:len(open)-1]
		}
		parent := NoNode
		if len(open) > 0 {
			parent = open[len(open)-1]
			if NodeID(sub) > nodes[parent].subtreeEnd { // must nest in its parent
				return nil, false, errPacked
			}
		} else if i > 0 {
			return nil, false, errPacked // one root
		}
		*x = Node{start: uint32(start), end: uint32(end), parent: parent, subtreeEnd: NodeID(sub),
			kind: Kind(kind), field: Field(field), flags: flags}
		open = append(open, NodeID(i))
		prev = start
	}
	if len(r.b) != 0 {
		return nil, false, errPacked
	}
	return nodes, count&1 != 0 && clean, nil
}

// reader reads unsigned varints, remembering a failure instead of
// returning it at each call.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) uvarint() uint64 {
	if len(r.b) > 0 && r.b[0] < 0x80 {
		v := r.b[0]
		r.b = r.b[1:]
		return uint64(v)
	}
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.bad = true
		r.b = nil
		return 0
	}
	r.b = r.b[k:]
	return v
}
