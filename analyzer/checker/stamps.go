package checker

import (
	"io/fs"

	"github.com/sglint/sglint/internal/stamp"
)

// fileStamp is a file's size, times and identity: when every input's stamp
// is the one the last run recorded, and none was taken too close to that
// run to tell a later write apart (git's "racy clean" rule, Older), the
// inputs are taken as unchanged without reading them. Anything else, and
// the files are read and hashed as usual: the stamps only ever skip work
// that would give the same answer.
type fileStamp = stamp.Stamp

// stampOf is what the file system says of path without reading it (info,
// when discovery already asked); ok is false when it cannot say (then the
// file is read).
func stampOf(path string, info fs.FileInfo) (fileStamp, bool) {
	if st, ok := stamp.Of(info); ok {
		return st, true
	}
	st, exists, _, ok := stamp.Path(path)
	return st, ok && exists
}
