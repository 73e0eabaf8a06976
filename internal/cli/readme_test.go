package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/config"
)

// readmeBlock returns the first fenced block of kind lang after heading.
func readmeBlock(t *testing.T, heading, lang string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(b), "\n"+heading+"\n")
	require.True(t, ok, "README has %q", heading)
	_, after, ok = strings.Cut(after, "```"+lang+"\n")
	require.True(t, ok, "a %s block after %q", lang, heading)
	block, _, ok := strings.Cut(after, "```")
	require.True(t, ok)
	return block
}

// The README's example configuration must load with the registered rules,
// so the documentation cannot drift from what the loader accepts.
func TestReadmeConfigExampleLoads(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pyproject.toml")
	require.NoError(t, os.WriteFile(file, []byte(readmeBlock(t, "## Configuration", "toml")), 0o644))
	c, err := config.Load(file, registry())
	require.NoError(t, err)
	assert.Equal(t, []string{"SGL"}, c.Selection.Select)
	assert.Len(t, c.PerFileIgnores, 2)

	// And sglint runs with it.
	putFile(t, dir, "pkg/a.py", "x = 1  # noqa: SGL000\n")
	o := runMain(t, dir, nil)
	assert.Equal(t, outcome{ExitFindings, "pkg/a.py:1:8: SGL100 unused `noqa` code SGL000\nFound 1 problem in 1 file.\n", ""}, o)
}
