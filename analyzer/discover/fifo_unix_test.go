//go:build unix

package discover

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pipe named *.py met in a walk is skipped: reading it could block forever.
func TestWalkSkipsPipes(t *testing.T) {
	root := tree(t, "a.py")
	require.NoError(t, syscall.Mkfifo(filepath.Join(root, "pipe.py"), 0o644))
	got, problems := find(t, root, DefaultOptions(), ".")
	assert.Equal(t, []string{"a.py"}, got)
	assert.Equal(t, []Problem{{Path: "pipe.py", Message: "not a regular file, skipped", Warning: true}}, problems)

	// Named explicitly, it is listed (bash's <(...) is a pipe).
	files, problems := Find([]string{"pipe.py"}, Options{Cwd: root})
	assert.Empty(t, problems)
	require.Len(t, files, 1)
	assert.True(t, files[0].Explicit)
}
