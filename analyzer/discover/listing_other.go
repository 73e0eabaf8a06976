//go:build !linux

package discover

import (
	"io/fs"
)

// afterRead: the files found are stat'ed later (settle).
func (l *listing) afterRead(string) {}

// reuse: listings are kept on Linux only, where a directory's stamp is
// read the same way the listing's files are stat'ed; elsewhere every
// directory is read.
func (l *listing) reuse(string, []entry, func(DirStamp) bool) bool { return false }

func dirStampOf(fs.FileInfo) (DirStamp, bool) { return DirStamp{}, false }
