//go:build unix

package discover

import (
	"io/fs"
	"syscall"
)

// fileKey identifies a file or directory whatever path reaches it.
type fileKey struct {
	dev, ino uint64
	path     string // used only where inodes are unavailable
}

// keyOf returns the identity of the file info describes (from os.Stat, so
// links are followed).
func keyOf(abs string, info fs.FileInfo) fileKey {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	}
	return fileKey{path: realPath(abs)}
}
