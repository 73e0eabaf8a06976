package syntaxtest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

// The tree is whole and stays usable after Parse has closed its parser.
func TestParse(t *testing.T) {
	const src = "def f(a):\n    return a\n"
	tree := syntaxtest.Parse(t, src)
	assert.Equal(t, syntax.Module, tree.Kind(tree.Root()))
	assert.Equal(t, src, tree.Text(tree.Root()))
	assert.Equal(t, syntax.FunctionDefinition, tree.Kind(tree.NamedChild(tree.Root(), 0)))
}
