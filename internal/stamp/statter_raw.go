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
	var raw syscall.Stat_t
	if err := s.Stat(path, &raw); err != nil {
		return Stamp{}, false, false, Missing(err)
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

// Stat is what Path reads, whole: raw receives the stat of path
// (following links).
func (s *Statter) Stat(path string, raw *syscall.Stat_t) error {
	if strings.IndexByte(path, 0) >= 0 {
		return syscall.EINVAL // as syscall.Stat refuses it
	}
	s.buf = append(append(s.buf[:0], path...), 0)
	dirfd := unix.AT_FDCWD
	if s.Dir != nil {
		dirfd = s.Dir.fd
	}
	_, _, errno := syscall.Syscall6(unix.SYS_NEWFSTATAT, uintptr(dirfd),
		uintptr(unsafe.Pointer(&s.buf[0])), uintptr(unsafe.Pointer(raw)), 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
