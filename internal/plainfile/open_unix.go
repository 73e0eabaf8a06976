//go:build unix

package plainfile

import (
	"io"
	"os"
	"syscall"
)

// fdFile is an open file read with plain system calls.
type fdFile int

// Open opens the file at path for reading and says what it is.
func Open(path string) (io.ReadCloser, Info, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, Info{}, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, Info{}, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	mode := st.Mode & syscall.S_IFMT
	return fdFile(fd), Info{Dir: mode == syscall.S_IFDIR, Regular: mode == syscall.S_IFREG, Size: st.Size}, nil
}

func (f fdFile) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f fdFile) Close() error { return syscall.Close(int(f)) }
