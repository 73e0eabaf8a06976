//go:build linux

package stamp

import (
	"io/fs"
	"syscall"
)

// Full is true where stamps hold times and identity from the stat itself,
// so that a file rewritten with the same size within the same second is
// still seen (the replay records need that).
const Full = true

func of(info fs.FileInfo) (Stamp, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return Stamp{}, false
	}
	return ofStat(st), true
}

func ofStat(st *syscall.Stat_t) Stamp {
	s := Stamp{Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(), Ino: uint64(st.Ino), Dev: uint64(st.Dev)}
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		s.Size = st.Size
	}
	return s
}

// Path stats path, following links, without allocating: its stamp,
// whether it exists and whether it is a directory; ok is false when the
// stat failed for another reason than the path's absence.
func Path(path string) (st Stamp, exists, isDir, ok bool) {
	var raw syscall.Stat_t
	if err := syscall.Stat(path, &raw); err != nil {
		return Stamp{}, false, false, Missing(err)
	}
	return ofStat(&raw), true, raw.Mode&syscall.S_IFMT == syscall.S_IFDIR, true
}

// OfStat is the stamp of a raw stat.
func OfStat(st *syscall.Stat_t) Stamp { return ofStat(st) }
