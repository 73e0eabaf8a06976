//go:build !unix

package discover

import "io/fs"

// fileKey identifies a file or directory whatever path reaches it.
type fileKey struct {
	dev, ino uint64
	path     string
}

// keyOf falls back to the fully resolved path where inodes are unavailable.
func keyOf(abs string, _ fs.FileInfo) fileKey { return fileKey{path: realPath(abs)} }
