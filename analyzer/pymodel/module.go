package pymodel

import (
	"path/filepath"
	"strings"

	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/internal/relpath"
)

// ModuleName is the dotted module name of the Python file at path relative
// to root (the project root: see discover.ProjectRoot): "pkg/sub/mod.py" -> "pkg.sub.mod", "pkg/__init__.py" -> "pkg"
// (isPackage true). A path outside root, or one whose directories are not
// identifiers, is named from the longest tail of directories that are
// (like Python would import it from the nearest possible sys.path entry).
func ModuleName(root, path string) (name string, isPackage bool) {
	rel := path
	if root != "" {
		// Both absolute: Rel cannot relate a relative root to an
		// absolute path (a relative root is what tests pass).
		absRoot, err1 := filepath.Abs(root)
		abs, err2 := filepath.Abs(path)
		if err1 == nil && err2 == nil {
			if r, ok := relpath.Inside(absRoot, abs); ok {
				rel = r
			}
		}
	}
	rel = filepath.ToSlash(rel)
	rel = strings.TrimPrefix(rel, "./")
	rel = strings.TrimSuffix(rel, ".py")
	rel = strings.TrimSuffix(rel, ".pyi")
	parts := strings.Split(rel, "/")
	if n := len(parts); n > 0 && parts[n-1] == "__init__" {
		parts = parts[:n-1]
		isPackage = true
	}
	// Keep the longest tail of identifier segments.
	start := len(parts)
	for start > 0 && pyname.IsIdent(parts[start-1]) {
		start--
	}
	parts = parts[start:]
	return strings.Join(parts, "."), isPackage
}
