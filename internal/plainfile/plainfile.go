// Package plainfile reads files with plain system calls where it can.
//
// On Linux, os.Open readies every file for the runtime's poller: two fcntl
// calls to make it non-blocking, an epoll registration that a regular file
// refuses, and two more fcntl calls to undo the first. That is five system
// calls on top of the open, stat, read and close of a file read whole, and
// a run reads a few dozen source files and cache entries, each of them on
// its critical path. Here a file is opened, stat'ed, read and closed, and
// nothing else.
package plainfile

import (
	"io"
	"io/fs"
	"math"
)

// Info is what a reader needs to know of an open file.
type Info struct {
	Dir, Regular bool
	Size         int64
}

// SizeHint is the buffer to read the file whole into (ReadAtMost's hint):
// its size and one byte more, to see its end without growing the buffer;
// 512 for a file that claims no size (a pipe).
func (i Info) SizeHint() int64 {
	if i.Regular {
		return i.Size + 1
	}
	return 512
}

// ReadFile reads the file at path whole, like os.ReadFile (and with its
// errors: an *fs.PathError).
func ReadFile(path string) ([]byte, error) {
	f, info, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := ReadAtMost(f, info.SizeHint(), math.MaxInt64)
	if err != nil {
		if _, ok := err.(*fs.PathError); !ok {
			err = &fs.PathError{Op: "read", Path: path, Err: err}
		}
		return nil, err
	}
	return b, nil
}

// ReadAtMost reads r to its end or to limit bytes, into a buffer of hint
// bytes to start with (io.ReadAll starts small and copies as it grows).
func ReadAtMost(r io.Reader, hint, limit int64) ([]byte, error) {
	b := make([]byte, 0, min(max(hint, 512), limit))
	for int64(len(b)) < limit {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		room := min(int64(cap(b)-len(b)), limit-int64(len(b)))
		n, err := r.Read(b[len(b) : len(b)+int(room)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}
