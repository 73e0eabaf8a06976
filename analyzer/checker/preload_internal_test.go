package checker

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
)

// countRule reports how many top-level statements a file has: its finding
// tells which bytes the tree was parsed from.
var countRule = &analyzer.Rule{ID: "SGL902", Name: "count", Run: func(p *analyzer.Pass) error {
	t := p.File.Tree()
	n := 0
	for range t.NamedChildren(t.Root()) {
		n++
	}
	p.ReportNode(t.Root(), strconv.Itoa(n))
	return nil
}}

func messages(res *Result) []string {
	var out []string
	for _, d := range res.Diagnostics {
		out = append(out, d.Message)
	}
	return out
}

// A preloaded tree is used by the Run that loads the same bytes, and never
// for other bytes: a file changed after its preload is parsed again.
func TestPreloadIsUsedOnlyForTheSameBytes(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "a.py")
	require.NoError(t, os.WriteFile(abs, []byte("x = 1\ny = 2\n"), 0o644))
	in := []Input{{Path: "a.py", Abs: abs, Report: true}}
	opts := Options{Rules: []*analyzer.Rule{countRule}, Jobs: 2, Root: dir}

	Preload(abs)
	assert.Equal(t, []string{"2"}, messages(Run(in, opts)))
	preloads.mu.Lock()
	assert.Empty(t, preloads.m, "the Run took the preload")
	preloads.mu.Unlock()

	Preload(abs)
	preloads.mu.Lock()
	p := preloads.m[abs]
	preloads.mu.Unlock()
	<-p.done
	require.NotNil(t, p.tree, "parsed")
	require.NoError(t, os.WriteFile(abs, []byte("x = 1\ny = 2\nz = 3\n"), 0o644))
	assert.Equal(t, []string{"3"}, messages(Run(in, opts)), "the bytes read now, not the preloaded ones")

	// What a Run takes is the preloaded tree itself, and the bytes compare
	// as the Run reads them: a lone CR is a line feed to both.
	require.NoError(t, os.WriteFile(abs, []byte("x = 1\ry = 2\n"), 0o644))
	Preload(abs)
	preloads.mu.Lock()
	p = preloads.m[abs]
	preloads.mu.Unlock()
	<-p.done
	src, prob := readSource(in[0], DefaultMaxFileSize, newWorkerStats())
	require.Nil(t, prob)
	tree, _, ok := takePreload(abs, src)
	require.True(t, ok, "taken for the bytes a Run reads")
	assert.Same(t, p.tree, tree)

	// A preload of a file that is not there, or that no Run loads, is
	// harmless.
	require.NoError(t, os.WriteFile(abs, []byte("x = 1\ny = 2\nz = 3\n"), 0o644))
	Preload(filepath.Join(dir, "missing.py"))
	assert.Equal(t, []string{"3"}, messages(Run(in, opts)))
}
