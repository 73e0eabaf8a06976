//go:build !(linux && (amd64 || arm64))

package stamp

// Path is stamp.Path: here the statter reuses nothing.
func (s *Statter) Path(path string) (st Stamp, exists, isDir, ok bool) { return Path(path) }
