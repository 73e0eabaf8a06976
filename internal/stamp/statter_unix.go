//go:build unix

package stamp

import (
	"path/filepath"
	"syscall"
)

// Stat is what Path reads, whole: raw receives the stat of path
// (following links), for callers that need its mode as well.
func (s *Statter) Stat(path string, raw *syscall.Stat_t) error {
	if s.Dir != nil && !filepath.IsAbs(path) {
		path = filepath.Join(s.Dir.path, path)
	}
	return syscall.Stat(path, raw)
}
