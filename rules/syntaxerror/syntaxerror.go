// Package syntaxerror reports files that do not parse (SGL000).
package syntaxerror

import (
	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Rule SGL000 syntax-error.
var Rule = &analyzer.Rule{
	ID:       "SGL000",
	Name:     "syntax-error",
	Severity: analyzer.Error,
	Title:    "File does not parse as Python",
	Run:      run,
	Doc: `## What it does
Reports the first place where tree-sitter could not parse the file: an
unexpected token (an ERROR node) or a token it had to invent (a MISSING node).

## Why is this bad?
Python refuses to import the module, and every other rule sees only a
partial tree: code inside the broken region is not checked at all.

## Example
` + "```python" + `
def send_kvcache(self, req:
    pass
` + "```" + `

## Use instead
` + "```python" + `
def send_kvcache(self, req):
    pass
` + "```" + `

## Known limits
Only the first error of a file is reported. tree-sitter accepts some code
that CPython rejects (for example ` + "`return`" + ` outside a function), which
this rule does not report.
`,
}

func run(pass *analyzer.Pass) error {
	t := pass.File.Tree
	n := FirstError(t)
	if n == syntax.NoNode {
		return nil
	}
	if t.IsMissing(n) {
		pass.Reportf(n, "syntax error: missing `%s`", t.Kind(n))
		return nil
	}
	text := t.Text(n)
	if r := []rune(text); len(r) > 20 {
		text = string(r[:20]) + "…"
	}
	pass.Reportf(n, "syntax error: unexpected `%s`", text)
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
