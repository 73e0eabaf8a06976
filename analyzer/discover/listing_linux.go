//go:build linux

package discover

import (
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/sglint/sglint/internal/stamp"
	"golang.org/x/sys/unix"
)

// On Linux a listing is read with raw system calls: open, fstat, getdents
// and close, where os.Open would add a poller registration that fails and
// four fcntl calls per directory. The Python files are stat'ed in the same
// pass, relative to the directory's descriptor (fstatat), so the kernel
// resolves a name instead of a whole path.

// direntBufs holds the buffers getdents fills.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func (l *listing) read(abs string) {
	fd, err := openDir(abs, unix.O_RDONLY)
	if err != nil {
		l.openErr = &fs.PathError{Op: "open", Path: abs, Err: err}
		return
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		l.statErr = &fs.PathError{Op: "stat", Path: abs, Err: err}
		return
	}
	l.info = newStatInfo(filepath.Base(abs), &st)
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			l.readErr = &fs.PathError{Op: "readdirent", Path: abs, Err: err}
			return
		}
		if n <= 0 {
			break
		}
		l.entries = appendDirents(l.entries, buf[:n])
	}
	sortEntries(l.entries)
	l.statPython(abs, fd)
}

// statPython stats the Python files (and the entries of unknown type) of
// a listing by name in the directory open as fd. Directories are opened
// (and fstat'ed) when walked, links are followed by the walk.
func (l *listing) statPython(abs string, fd int) {
	for i := range l.entries {
		e := &l.entries[i]
		if e.typ == unknownType || e.typ.IsRegular() && strings.HasSuffix(e.name, ".py") {
			var fst unix.Stat_t
			if err := fstatat(fd, e.name, &fst); err != nil {
				e.err = &fs.PathError{Op: "lstat", Path: joinClean(abs, e.name), Err: err}
				if e.typ == unknownType {
					e.typ = 0 // judged a regular file: the walk reports the error if it keeps it
				}
				continue
			}
			e.info = newStatInfo(e.name, &fst)
			e.typ = e.info.Mode().Type()
		}
	}
}

// reuse fills l with entries, the directory's recorded listing, if
// unchanged accepts its stamp now. The directory is opened for its path
// only (O_PATH: nothing is listed), to stat it and its Python files by
// name relative to it.
func (l *listing) reuse(abs string, entries []entry, unchanged func(DirStamp) bool) bool {
	fd, err := openDir(abs, unix.O_PATH)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if fstat(fd, &st) != nil {
		return false
	}
	info := newStatInfo(filepath.Base(abs), &st)
	if ds, _ := dirStampOf(info); !unchanged(ds) {
		return false
	}
	l.info = info
	l.entries = make([]entry, len(entries))
	copy(l.entries, entries)
	l.statPython(abs, fd)
	return true
}

// openDir opens a directory; O_PATH opens it for its path only (no read
// access is checked, nothing can be listed).
func openDir(abs string, flags int) (fd int, err error) {
	err = ignoringEINTR(func() error {
		fd, err = unix.Open(abs, flags|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		return err
	})
	return fd, err
}

func fstat(fd int, st *unix.Stat_t) error {
	return ignoringEINTR(func() error { return unix.Fstat(fd, st) })
}

func fstatat(fd int, name string, st *unix.Stat_t) error {
	return ignoringEINTR(func() error { return unix.Fstatat(fd, name, st, unix.AT_SYMLINK_NOFOLLOW) })
}

// ignoringEINTR calls f again while a signal interrupts it, as package os
// does.
func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// appendDirents parses linux_dirent64 records: inode (8 bytes), offset
// (8), record length (2), type (1), then the NUL-terminated name.
func appendDirents(out []entry, buf []byte) []entry {
	for len(buf) >= 19 {
		reclen := int(*(*uint16)(unsafe.Pointer(&buf[16])))
		if reclen < 19 || reclen > len(buf) {
			break
		}
		rec := buf[:reclen]
		buf = buf[reclen:]
		ino := *(*uint64)(unsafe.Pointer(&rec[0]))
		if ino == 0 { // a deleted entry
			continue
		}
		name := rec[19:]
		if i := indexNUL(name); i >= 0 {
			name = name[:i]
		}
		if len(name) == 0 || name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.') {
			continue
		}
		var typ fs.FileMode
		switch rec[18] {
		case unix.DT_REG:
			typ = 0
		case unix.DT_DIR:
			typ = fs.ModeDir
		case unix.DT_LNK:
			typ = fs.ModeSymlink
		case unix.DT_FIFO:
			typ = fs.ModeNamedPipe
		case unix.DT_SOCK:
			typ = fs.ModeSocket
		case unix.DT_CHR:
			typ = fs.ModeDevice | fs.ModeCharDevice
		case unix.DT_BLK:
			typ = fs.ModeDevice
		default:
			typ = unknownType
		}
		out = append(out, entry{name: string(name), typ: typ})
	}
	return out
}

func indexNUL(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

// statInfo is an fs.FileInfo from a raw stat, whose Sys is a
// *syscall.Stat_t like os.Lstat's, for the walk's and the cache's
// identities and stamps.
type statInfo struct {
	name string
	st   syscall.Stat_t
}

func newStatInfo(name string, st *unix.Stat_t) *statInfo {
	return &statInfo{name: name, st: syscall.Stat_t{
		Dev: st.Dev, Ino: st.Ino, Nlink: st.Nlink, Mode: st.Mode, Uid: st.Uid, Gid: st.Gid,
		Rdev: st.Rdev, Size: st.Size, Blksize: st.Blksize, Blocks: st.Blocks,
		Atim: syscall.Timespec{Sec: st.Atim.Sec, Nsec: st.Atim.Nsec},
		Mtim: syscall.Timespec{Sec: st.Mtim.Sec, Nsec: st.Mtim.Nsec},
		Ctim: syscall.Timespec{Sec: st.Ctim.Sec, Nsec: st.Ctim.Nsec},
	}}
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(int64(s.st.Mtim.Sec), int64(s.st.Mtim.Nsec)) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.st }

// Mode converts the stat mode as os.Lstat does.
func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if s.st.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.st.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.st.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// dirStampOf returns what changes when a directory's entries change (an
// entry added, removed or renamed sets its mtime and ctime) and its
// identity; false if info holds no stat. info is always a directory's
// (an fstat of the directory opened), whose stamp has no size.
func dirStampOf(info fs.FileInfo) (DirStamp, bool) { return stamp.Of(info) }
