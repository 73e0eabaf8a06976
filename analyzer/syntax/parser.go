package syntax

import (
	"fmt"

	ts "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

var language = ts.NewLanguage(tspython.Language())

// Parser owns one tree-sitter parser. It is not safe for concurrent use:
// give each worker goroutine its own and Close it when the worker ends.
type Parser struct {
	p *ts.Parser
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
	nodes, err := parseFlat(p.p, src)
	if err != nil {
		return nil, err
	}
	for i := range nodes {
		k := nodes[i].kind
		if int(k) < len(canonical) {
			nodes[i].kind = canonical[k]
			nodes[i].flags |= symbolFlags[k]
		} else { // ts_builtin_sym_error, 0xFFFF
			nodes[i].flags |= flagNamed | flagError
		}
	}
	return &Tree{Src: src, nodes: nodes, lineStarts: LineStarts(src)}, nil
}
