package cache

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sglint/sglint/analyzer/discover"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultDir(t *testing.T) {
	t.Setenv("SGLINT_CACHE_DIR", "")
	repo := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(repo, "python", "pkg"), 0o755))
	// One cache per checkout, whichever project root a run has.
	assert.Equal(t, filepath.Join(repo, DirName), DefaultDir(filepath.Join(repo, "python")))
	assert.Equal(t, filepath.Join(repo, DirName), DefaultDir(repo))

	assert.Equal(t, filepath.Join(repo, DirName), DefaultDir(filepath.Join(repo, "python", "pkg")), "from deeper down")

	t.Setenv("SGLINT_CACHE_DIR", "/elsewhere")
	assert.Equal(t, "/elsewhere", DefaultDir(repo))
	t.Setenv("SGLINT_CACHE_DIR", "")

	loose := t.TempDir()
	if discover.RepoRoot(loose) != "" {
		t.Skip("the temporary directory lies in a git work tree")
	}
	assert.Equal(t, filepath.Join(loose, DirName), DefaultDir(loose))
}
