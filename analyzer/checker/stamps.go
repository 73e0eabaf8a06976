package checker

import "time"

// fileStamp is a file's size, times and identity: when every input's stamp
// is the one the last run recorded, and none was taken too close to that
// run to tell a later write apart (git's "racy clean" rule), the inputs
// are taken as unchanged without reading them. Anything else, and the
// files are read and hashed as usual: the stamps only ever skip work that
// would give the same answer.
type fileStamp struct {
	Size, Mtime, Ctime int64
	Ino, Dev           uint64
}

// racyWindow: a file changed less than this before the plan was written
// may have been written again within the same timestamp tick.
var racyWindow = 2 * time.Second // a variable for tests

// older reports a stamp whose times are all far enough before written
// (unix nanoseconds) that a write after it would show in them.
func (s fileStamp) older(written int64) bool {
	return max(s.Mtime, s.Ctime) < written-int64(racyWindow)
}
