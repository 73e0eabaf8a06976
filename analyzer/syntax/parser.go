package syntax

import (
	"fmt"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

var language = ts.NewLanguage(tspython.Language())

// Parser owns one tree-sitter parser. It is not safe for concurrent use:
// give each worker goroutine its own and Close it when the worker ends.
type Parser struct {
	p *ts.Parser
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
}

// NewParser returns a parser for Python.
func NewParser() *Parser {
	p := ts.NewParser()
	if err := p.SetLanguage(language); err != nil {
		// The grammar is compiled in; a version mismatch is a build bug.
		panic(fmt.Sprintf("sglint: tree-sitter-python rejected: %v", err))
	}
	return &Parser{p: p}
}

// Close frees the C parser. The parser must not be used afterwards.
func (p *Parser) Close() {
	if p.p != nil {
		p.p.Close()
		p.p = nil
	}
}

// Parse parses src into a flat Tree. src must not change while the Tree is
// in use: node texts are slices of it.
func (p *Parser) Parse(src []byte) (*Tree, error) {
	nodes, err := parseFlat(p.p, src, &p.Timing)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	defer func() { p.Timing.Flatten += time.Since(t0) }()
	p.Timing.Files++
	p.Timing.Nodes += int64(len(nodes))
	return &Tree{Src: src, nodes: nodes, lineStarts: LineStarts(src)}, nil
}
