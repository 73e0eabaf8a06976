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

// repoFile is a file of the repository, by its path from the root.
func repoFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(path)))
	require.NoError(t, err)
	return string(b)
}

// docBlock returns the first fenced block of kind lang after the first
// line of file that equals marker (a heading, or the opening line of the
// block before it).
func docBlock(t *testing.T, file, marker, lang string) string {
	t.Helper()
	_, after, ok := strings.Cut(repoFile(t, file), "\n"+marker+"\n")
	require.True(t, ok, "%s has %q", file, marker)
	_, after, ok = strings.Cut(after, "```"+lang+"\n")
	require.True(t, ok, "a %s block after %q in %s", lang, marker, file)
	block, _, ok := strings.Cut(after, "```")
	require.True(t, ok)
	return block
}

// The documentation's example configuration must load with the registered
// rules, so the documentation cannot drift from what the loader accepts.
func TestDocsConfigExampleLoads(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pyproject.toml")
	require.NoError(t, os.WriteFile(file, []byte(docBlock(t, "docs/configuration.md", "## Configuration", "toml")), 0o644))
	c, err := config.Load(file, registry())
	require.NoError(t, err)
	assert.Equal(t, []string{"SGL"}, c.Selection.Select)
	assert.Len(t, c.PerFileIgnores, 2)

	// And sglint runs with it.
	putFile(t, dir, "pkg/a.py", "x = 1  # noqa: SGL000\n")
	o := runMain(t, dir, nil, "pkg/a.py")
	assert.Equal(t, outcome{ExitFindings, "pkg/a.py:1:8: SGL100 unused `noqa` code SGL000\nFound 1 problem in 1 file: 1 warning (SGL100).\n", ""}, o)
}

// The README shows the example project's output verbatim: its first
// command prints one finding of each KV rule, and with the example's record
// loaded, SGL010 as well. A change to a rule's message or to the example
// fails here until the README is updated.
func TestReadmeExampleOutput(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	readme := repoFile(t, "README.md")
	want := commandOutput(t, readme, "go run ./cmd/sglint ./testdata/example")
	sgl010 := commandOutput(t, readme, "go run ./cmd/sglint --records testdata/example/records ./testdata/example")
	o := runMain(t, root, nil, "--no-cache", "./testdata/example")
	assert.Equal(t, ExitFindings, o.code, o.stderr)
	assert.Equal(t, want, o.stdout)
	for _, id := range []string{"SGL001", "SGL002", "SGL003", "SGL004"} {
		assert.Contains(t, o.stdout, ": "+id+" ")
	}
	assert.Equal(t, 2, strings.Count(o.stdout, ": SGL001 "), "SGL001 (a) and (b)")

	o = runMain(t, root, nil, "--no-cache", "--records", "testdata/example/records", "./testdata/example")
	assert.Equal(t, ExitFindings, o.code, o.stderr)
	var got []string
	for _, l := range strings.SplitAfter(o.stdout, "\n") {
		if strings.Contains(l, ": SGL010 ") {
			got = append(got, l)
		}
	}
	assert.Equal(t, sgl010, strings.Join(got, ""))
}

// commandOutput returns the output block the README shows right after the
// shell block holding command.
func commandOutput(t *testing.T, readme, command string) string {
	t.Helper()
	_, after, ok := strings.Cut(readme, "```sh\n"+command+"\n```\n\n```\n")
	require.True(t, ok, "the README shows the output of %q", command)
	block, _, ok := strings.Cut(after, "```")
	require.True(t, ok)
	return block
}

// The README is the first five minutes; the reference lives in docs/.
func TestReadmeStaysShort(t *testing.T) {
	assert.LessOrEqual(t, strings.Count(repoFile(t, "README.md"), "\n"), 250)
}

// The README says where a project keeps its records, with a configuration
// that loads: a folder of the repository named by records.
func TestReadmeSaysWhereRecordsLive(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pyproject.toml")
	require.NoError(t, os.WriteFile(file, []byte(docBlock(t, "README.md", "## Error records", "toml")), 0o644))
	c, err := config.Load(file, registry())
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, "records")}, c.Records)
}

// The README's first finding is the full form a terminal shows, verbatim.
func TestReadmeShowsTheFullForm(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	block := docBlock(t, "README.md", "## What it finds", "")
	o := runMain(t, root, nil, "--no-cache", "--format", "full", "./testdata/example")
	require.Equal(t, ExitFindings, o.code, o.stderr)
	assert.Contains(t, o.stdout, block)
	assert.True(t, strings.HasPrefix(block, "error[SGL001]: `src` may be empty here\n"), block)
}
