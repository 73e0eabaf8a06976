//go:build !unix

package checker

import (
	"io"
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
