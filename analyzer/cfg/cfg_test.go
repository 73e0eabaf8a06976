package cfg

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// render prints every graph of a file, each under a header naming its root.
func render(tree *syntax.Tree) string {
	var sb strings.Builder
	for _, root := range Roots(tree) {
		name := "<module>"
		switch tree.Kind(root) {
		case syntax.FunctionDefinition:
			name = "def " + syntax.DefQualName(tree, root)
		case syntax.ClassDefinition:
			name = "class " + syntax.DefQualName(tree, root)
		case syntax.Lambda:
			name = "lambda in " + syntax.QualName(tree, root)
		}
		fmt.Fprintf(&sb, "== %s (line %d)\n", name, tree.Start(root).Line)
		sb.WriteString(New(tree, root).Format())
	}
	return sb.String()
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/cfg/*.py")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			got := render(syntaxtest.Parse(t, string(src)))
			golden := strings.TrimSuffix(file, ".py") + ".golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test -update to create it")
			assert.Equal(t, string(want), got)
		})
	}
}
