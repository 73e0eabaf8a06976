//go:build !linux

package stamp

import (
	"io/fs"
	"os"
)

// Full is false here: a stamp is the size and modification time that
// os.Stat gives on every system (see stamp_linux.go).
const Full = false

func of(info fs.FileInfo) (Stamp, bool) {
	s := Stamp{Mtime: info.ModTime().UnixNano()}
	if !info.IsDir() {
		s.Size = info.Size()
	}
	return s, true
}

// Path stats path, following links: its stamp, whether it exists and
// whether it is a directory; ok is false when the stat failed for another
// reason than the path's absence.
func Path(path string) (st Stamp, exists, isDir, ok bool) {
	info, err := os.Stat(path)
	if err != nil {
		return Stamp{}, false, false, Missing(err)
	}
	st, _ = of(info)
	return st, true, info.IsDir(), true
}
