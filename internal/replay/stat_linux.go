//go:build linux

package replay

import (
	"io/fs"
	"syscall"
)

const statSupported = true

// stampOf reads a stamp from what os.Stat or os.Lstat returned; false when
// it holds no stat.
func stampOf(info fs.FileInfo) (Stamp, bool) {
	if info == nil {
		return Stamp{}, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return Stamp{}, false
	}
	return stampOfStat(st), true
}

func stampOfStat(st *syscall.Stat_t) Stamp {
	s := Stamp{Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(), Ino: uint64(st.Ino), Dev: uint64(st.Dev)}
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		s.Size = st.Size
	}
	return s
}

// statPath stats path, following links, without allocating: its stamp,
// whether it exists and whether it is a directory; ok is false when the
// stat failed for another reason than the path's absence.
func statPath(path string) (st Stamp, exists, isDir, ok bool) {
	var raw syscall.Stat_t
	if err := syscall.Stat(path, &raw); err != nil {
		return Stamp{}, false, false, err == syscall.ENOENT || err == syscall.ENOTDIR
	}
	return stampOfStat(&raw), true, raw.Mode&syscall.S_IFMT == syscall.S_IFDIR, true
}
