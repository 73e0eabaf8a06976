//go:build !unix

package plainfile

import (
	"io"
	"os"
)

// Open opens the file at path for reading and says what it is.
func Open(path string) (io.ReadCloser, Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Info{}, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, Info{}, err
	}
	return f, Info{Dir: info.IsDir(), Regular: info.Mode().IsRegular(), Size: info.Size()}, nil
}
