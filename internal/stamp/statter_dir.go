package stamp

import (
	"os"
)

// Path is stamp.Path, under the statter's Dir.
func (s *Statter) Path(path string) (st Stamp, exists, isDir, ok bool) {
	return Path(s.path(path))
}

// A Dir is a directory the paths under it are joined to.
type Dir struct{ path string }

// OpenDir checks that path is a directory.
func OpenDir(path string) (*Dir, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, &os.PathError{Op: "open", Path: path, Err: os.ErrInvalid}
	}
	return &Dir{path: path}, nil
}

// Close releases nothing.
func (d *Dir) Close() error { return nil }
