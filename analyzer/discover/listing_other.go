//go:build !linux

package discover

import (
	"io/fs"
	"os"
)

// read opens, identifies (fstat, not a second path lookup) and lists one
// directory; the files found are stat'ed later (settle).
func (l *listing) read(abs string) {
	d, err := os.Open(abs)
	if err != nil {
		l.openErr = err
		return
	}
	defer d.Close()
	if l.info, l.statErr = d.Stat(); l.statErr != nil {
		return
	}
	var des []fs.DirEntry
	des, l.readErr = d.ReadDir(-1)
	for _, e := range des {
		l.entries = append(l.entries, entry{name: e.Name(), typ: e.Type()})
	}
	sortEntries(l.entries)
}

// reuse: listings are kept on Linux only, where a directory's stamp is
// read the same way the listing's files are stat'ed; elsewhere every
// directory is read.
func (l *listing) reuse(string, []entry, func(DirStamp) bool) bool { return false }

func dirStampOf(fs.FileInfo) (DirStamp, bool) { return DirStamp{}, false }
