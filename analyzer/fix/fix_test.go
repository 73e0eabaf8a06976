package fix

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/syntax"
)

func edit(l1, c1, l2, c2 int, text string) analyzer.TextEdit {
	return analyzer.TextEdit{Start: syntax.Position{Line: l1, Column: c1}, End: syntax.Position{Line: l2, Column: c2}, New: text}
}

func TestApply(t *testing.T) {
	p := syntax.NewParser()
	defer p.Close()
	src := "x = f()  # noqa: SGL001, SGL004\n# noqa: SGL002\ny = 1  # noqa: SGL003 -- why\nz = \"é\"  # noqa: SGL005\n"
	out, err := Apply(p, []byte(src), []analyzer.TextEdit{
		edit(1, 10, 1, 32, "# noqa: SGL004"), // keep one code
		edit(2, 1, 2, 15, ""),                // a comment-only line goes
		edit(3, 8, 3, 22, ""),                // the rest of the comment stays one
		edit(4, 10, 4, 24, ""),               // columns count code points
	})
	require.NoError(t, err)
	assert.Equal(t, "x = f()  # noqa: SGL004\ny = 1  # -- why\nz = \"é\"\n", string(out))

	_, err = Apply(p, []byte(src), []analyzer.TextEdit{edit(1, 10, 1, 32, "("), edit(9, 1, 9, 2, "")})
	assert.Error(t, err, "outside the file")
	_, err = Apply(p, []byte(src), []analyzer.TextEdit{edit(1, 1, 1, 8, "x = (")})
	assert.ErrorContains(t, err, "would not parse")
	// An error tree-sitter reports only as a missing token (no ERROR node)
	// still counts.
	_, err = Apply(p, []byte("def f():\n    pass\n"), []analyzer.TextEdit{edit(1, 7, 1, 8, " ")})
	assert.ErrorContains(t, err, "would not parse")
	_, err = Apply(p, []byte(src), []analyzer.TextEdit{edit(1, 1, 1, 8, "a"), edit(1, 5, 1, 9, "b")})
	assert.ErrorContains(t, err, "overlapping")
}
