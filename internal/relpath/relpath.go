// Package relpath says whether a path lies inside a directory, the test
// that display paths, configuration roots and project membership all make.
package relpath

import (
	"path/filepath"
	"strings"
)

// Inside returns path relative to dir ("." for dir itself) and true when
// path is dir or lies inside it, lexically (filepath.Rel: no link is
// followed); false when it lies outside or the two cannot be related (one
// absolute, the other not). A name that merely starts with two dots
// ("..cache") is inside.
func Inside(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}
