package stamp

import "path/filepath"

// A Statter stats paths, a relative one under Dir when it is set (the
// working directory otherwise). Raw fstatat from an open directory with a
// reused buffer measured within noise of this (issue 33) and went.
type Statter struct {
	Dir *Dir
}

// path is p under the statter's Dir when p is relative.
func (s *Statter) path(p string) string {
	if s.Dir != nil && !filepath.IsAbs(p) {
		return filepath.Join(s.Dir.path, p)
	}
	return p
}
