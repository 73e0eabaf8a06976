package pymodel

import (
	"path/filepath"
	"strings"
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
			if r, err := filepath.Rel(absRoot, abs); err == nil && !strings.HasPrefix(r, "..") {
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
	for start > 0 && isIdentifier(parts[start-1]) {
		start--
	}
	parts = parts[start:]
	return strings.Join(parts, "."), isPackage
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// ResolveRelative turns the module of a relative import into an absolute
// module name, as seen from module from (a package when isPackage):
// level 1 is from's package, each further level one package up. It returns
// false when the import climbs above the top package.
func ResolveRelative(from string, isPackage bool, level int, module string) (string, bool) {
	if level <= 0 {
		return module, true
	}
	base := from
	if !isPackage {
		base = parentModule(from)
	}
	for i := 1; i < level; i++ {
		if base == "" {
			return "", false
		}
		base = parentModule(base)
	}
	switch {
	case base == "":
		return module, true
	case module == "":
		return base, true
	}
	return base + "." + module, true
}

func parentModule(m string) string {
	if i := strings.LastIndexByte(m, '.'); i >= 0 {
		return m[:i]
	}
	return ""
}
