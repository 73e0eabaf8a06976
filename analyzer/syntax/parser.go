package syntax

import (
	"fmt"
	"sync"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

var language = ts.NewLanguage(tspython.Language())

// Parser parses Python, keeping C memory from file to file. It is not
// safe for concurrent use: give each worker goroutine its own and Close it
// when the worker ends.
type Parser struct {
	mem arena
	// Timing accumulates the time spent in Parse, for --stats.
	Timing Timing
}

// Timing splits the time spent by a Parser: tree-sitter's parse, and the
// copy into a Tree (the walk over the C tree, deleting it, kinds and line
// starts).
type Timing struct {
	Parse, Flatten time.Duration
	Files          int
	Nodes          int64
	// Spliced counts the Files that Reparse rebuilt from the old tree
	// and a parse of the statements an edit touched.
	Spliced int
}

// checkLanguage checks once, before the first parser, that tree-sitter
// accepts the grammar: it is compiled in, so a version mismatch is a build
// bug. (At startup it cost every run, and most runs parse nothing.)
var checkLanguage = sync.OnceFunc(func() {
	p := ts.NewParser()
	defer p.Close()
	if err := p.SetLanguage(language); err != nil {
		panic(fmt.Sprintf("sglint: tree-sitter-python rejected: %v", err))
	}
})

// NewParser returns a parser for Python.
func NewParser() *Parser {
	checkLanguage()
	return &Parser{mem: newArena()}
}

// Close frees the parser's C memory. The parser must not be used
// afterwards.
func (p *Parser) Close() { p.mem.free() }

// Parse parses src into a flat Tree. src must not change while the Tree is
// in use: node texts are slices of it.
func (p *Parser) Parse(src []byte) (*Tree, error) { return p.ParseReusing(src, nil) }

// ParseReusing is Parse, storing the new tree in the memory of old, which
// the caller gives up: old must not be used again, by anyone. A worker that
// parses many files and keeps none of their trees saves allocating (and
// the kernel faulting in) a tree's worth of memory per file. old may be
// nil.
func (p *Parser) ParseReusing(src []byte, old *Tree) (*Tree, error) {
	var nodes []Node
	var starts []uint32
	if old != nil {
		nodes, starts = old.nodes, old.lineStarts
		*old = Tree{} // a stale reference reads an empty tree, not another file's nodes
	}
	if p.mem.a == nil {
		return nil, fmt.Errorf("syntax: parser used after Close")
	}
	if len(src) > bigSource {
		src = p.shrinkData(src) // the tree's Src: its texts are the blanked ones
	}
	nodes, clean, err := parseFlat(p.mem, src, nodes, &p.Timing)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	defer func() { p.Timing.Flatten += time.Since(t0) }()
	p.Timing.Files++
	p.Timing.Nodes += int64(len(nodes))
	return &Tree{Src: src, nodes: nodes, lineStarts: appendLineStarts(starts[:0], src), clean: clean}, nil
}
