//go:build unix

package stamp

import (
	"syscall"
)

// Stat is what Path reads, whole: raw receives the stat of path
// (following links), for callers that need its mode as well.
func (s *Statter) Stat(path string, raw *syscall.Stat_t) error {
	return syscall.Stat(s.path(path), raw)
}
