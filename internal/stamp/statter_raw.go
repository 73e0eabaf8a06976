//go:build linux && (amd64 || arm64)

package stamp

import (
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Path is stamp.Path with the statter's buffer: newfstatat, as
// syscall.Stat makes it, following links.
func (s *Statter) Path(path string) (st Stamp, exists, isDir, ok bool) {
	if strings.IndexByte(path, 0) >= 0 {
		return Path(path) // refused as Path refuses it
	}
	s.buf = append(append(s.buf[:0], path...), 0)
	var raw syscall.Stat_t
	dirfd := unix.AT_FDCWD
	if s.Dir != nil {
		dirfd = s.Dir.fd
	}
	_, _, errno := syscall.Syscall6(unix.SYS_NEWFSTATAT, uintptr(dirfd),
		uintptr(unsafe.Pointer(&s.buf[0])), uintptr(unsafe.Pointer(&raw)), 0, 0, 0)
	if errno != 0 {
		return Stamp{}, false, false, Missing(errno)
	}
	return ofStat(&raw), true, raw.Mode&syscall.S_IFMT == syscall.S_IFDIR, true
}

// A Dir is a directory opened for the paths under it (O_PATH: for its
// path only, nothing is read).
type Dir struct{ fd int }

// OpenDir opens path, a directory.
func OpenDir(path string) (*Dir, error) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return &Dir{fd: fd}, nil
}

// Close releases the directory.
func (d *Dir) Close() error { return unix.Close(d.fd) }
