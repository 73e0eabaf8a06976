package relpath

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestInside(t *testing.T) {
	for _, c := range []struct {
		dir, path string
		rel       string
		inside    bool
	}{
		{"/a/b", "/a/b", ".", true},
		{"/a/b", "/a/b/c.py", "c.py", true},
		{"/a/b", "/a/b/c/d.py", "c/d.py", true},
		{"/a/b", "/a/b/..cache/x.py", "..cache/x.py", true},
		{"/a/b", "/a/bc/x.py", "", false},
		{"/a/b", "/a", "", false},
		{"/a/b", "/x/y", "", false},
		{"/a/b", "/a/b/../c", "", false},
		{"a/b", "a/b/c", "c", true},
		{"/a/b", "c", "", false},
	} {
		rel, ok := Inside(filepath.FromSlash(c.dir), filepath.FromSlash(c.path))
		assert.Equal(t, c.inside, ok, "%s in %s", c.path, c.dir)
		assert.Equal(t, filepath.FromSlash(c.rel), rel, "%s in %s", c.path, c.dir)
	}
}
