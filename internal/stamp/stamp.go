// Package stamp is what the file system says of a file without reading
// it: size, modification and change times, inode and device. The caches
// take a file whose stamp is the one they recorded as unchanged, as git's
// index does, and trust no stamp taken too close to the recording: git's
// "racy clean" rule (Older). The plan and pre-scans (analyzer/checker),
// the directory listings (analyzer/discover) and the replay records
// (internal/replay) share it.
package stamp

import (
	"errors"
	"io/fs"
	"syscall"
	"time"
)

// Missing reports whether err, from a stat of a path, says the path is
// absent: not there, or under a file. Path reads both as missing, and a
// record that notes a path missing must read it the same way.
func Missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// Stamp is a file's or directory's size (files only), times (unix
// nanoseconds) and identity. Off Linux only the size and modification
// time are known (Of).
type Stamp struct {
	Size, Mtime, Ctime int64
	Ino, Dev           uint64
}

// RacyWindow: a file changed this close before its stamp was recorded may
// have changed again within the same timestamp tick, unseen.
var RacyWindow = 2 * time.Second // a variable for tests

// Older reports whether s's times are all far enough before recorded
// (unix nanoseconds) that a write after it would show in them.
func (s Stamp) Older(recorded int64) bool {
	return max(s.Mtime, s.Ctime) < recorded-int64(RacyWindow)
}

// Of reads a stamp from what os.Stat or os.Lstat returned (or discovery's
// FileInfo, or one that knows its stamp: Stamped); false when info holds
// none.
func Of(info fs.FileInfo) (Stamp, bool) {
	if info == nil {
		return Stamp{}, false
	}
	if s, ok := info.(Stamped); ok {
		return s.Stamp()
	}
	return of(info)
}

// Stamped is a FileInfo that carries its stamp rather than a raw stat (the
// replay's rescan keeps no more of a file than that).
type Stamped interface {
	fs.FileInfo
	Stamp() (Stamp, bool)
}
