// Package syntaxerror reports files that do not parse (SGL000).
package syntaxerror

import (
	_ "embed"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/syntax"
)

//go:embed doc.md
var doc string

// Rule SGL000 syntax-error.
var Rule = &analyzer.Rule{
	ID:       "SGL000",
	Name:     "syntax-error",
	Severity: analyzer.Error,
	Title:    "File does not parse as Python",
	Run:      run,
	Doc:      doc,
}

func run(pass *analyzer.Pass) error {
	if p, ok := locate(pass.File.Tree); ok {
		pass.ReportNode(p.node, p.message)
	}
	return nil
}

// FirstError returns the first ERROR or MISSING node in source order.
func FirstError(t *syntax.Tree) syntax.NodeID {
	for i := 0; i < t.Len(); i++ {
		n := syntax.NodeID(i)
		if t.IsError(n) || t.IsMissing(n) {
			return n
		}
	}
	return syntax.NoNode
}
