//go:build !unix

package checker

import (
	"io"
	"io/fs"
	"os"
)

func openSource(path string) (io.ReadCloser, sourceInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, sourceInfo{}, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, sourceInfo{}, err
	}
	return f, sourceInfo{dir: info.IsDir(), regular: info.Mode().IsRegular(), size: info.Size()}, nil
}

// stampOf is what the file system says of path without reading it; ok is
// false when it cannot say (then the file is read).
func stampOf(path string, info fs.FileInfo) (fileStamp, bool) {
	if info == nil {
		var err error
		if info, err = os.Stat(path); err != nil {
			return fileStamp{}, false
		}
	}
	return fileStamp{Size: info.Size(), Mtime: info.ModTime().UnixNano()}, true
}
