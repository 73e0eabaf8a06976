package discover

import (
	"os"
	"path/filepath"
	"slices"
)

// realPath resolves every symbolic link in abs, or returns abs unchanged.
func realPath(abs string) string {
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// projectMarkers are the entries that make a directory a project root.
var projectMarkers = []string{"pyproject.toml", "setup.py", ".git"}

// ProjectMarkers are the names whose presence makes a directory a project
// root (for a driver that watches them, as the replay record does).
func ProjectMarkers() []string { return slices.Clone(projectMarkers) }

// IsProjectRoot reports whether dir holds a project marker (pyproject.toml,
// setup.py or .git).
func IsProjectRoot(dir string) bool {
	for _, m := range projectMarkers {
		if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
			return true
		}
	}
	return false
}

// ProjectRoot returns the absolute directory module names are relative to:
// the nearest directory, from the arguments' deepest common directory
// upward, that holds pyproject.toml, setup.py or .git; else that common
// directory. Relative paths are taken from the working directory; no paths
// means ".".
func ProjectRoot(paths []string) string {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	common := ""
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if info, err := os.Stat(abs); err != nil || !info.IsDir() {
			abs = filepath.Dir(abs)
		}
		if common == "" {
			common = abs
		} else {
			common = commonDir(common, abs)
		}
	}
	if common == "" {
		common, _ = os.Getwd()
	}
	for d := common; ; {
		if IsProjectRoot(d) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return common
		}
		d = parent
	}
}

// commonDir returns the deepest directory holding both a and b (both
// absolute and clean).
func commonDir(a, b string) string {
	for {
		if within(b, a) {
			return a
		}
		parent := filepath.Dir(a)
		if parent == a {
			return a
		}
		a = parent
	}
}
