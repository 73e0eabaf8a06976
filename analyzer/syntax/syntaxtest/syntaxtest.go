// Package syntaxtest holds helpers for tests that need a parsed tree, so
// that each analysis package's tests need not write their own.
package syntaxtest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/syntax"
)

// Parse parses src, failing the test if tree-sitter returns an error. It
// uses a parser of its own: the tree holds no reference to it.
func Parse(tb testing.TB, src string) *syntax.Tree {
	tb.Helper()
	p := syntax.NewParser()
	defer p.Close()
	tree, err := p.Parse([]byte(src))
	require.NoError(tb, err)
	return tree
}
