package checker

import (
	"encoding/binary"
	"time"

	"github.com/sglint/sglint/analyzer/cache"
)

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

// stamps returns the key of every input's stamp and the newest time among
// them; false when an input has no stamp (standard input, a file that
// vanished).
func (r *runner) stamps() (cache.Key, int64, bool) {
	n := len(r.inputs)
	st := make([]fileStamp, n)
	ok := make([]bool, n)
	parallel(n, r.jobs, func(next <-chan int) {
		for i := range next {
			if in := r.inputs[i]; in.Src == nil && in.Abs != "" {
				st[i], ok[i] = stampOf(in.Abs, in.Info)
			}
		}
	})
	parts := make([][]byte, 0, n+2)
	parts = append(parts, []byte("stamps "+entryVersion), []byte(r.root))
	var newest int64
	buf := make([]byte, 0, n*48)
	for i, in := range r.inputs {
		if !ok[i] {
			return cache.Key{}, 0, false
		}
		s := st[i]
		newest = max(newest, s.Mtime, s.Ctime)
		start := len(buf)
		buf = append(buf, in.Path...)
		buf = append(buf, 0)
		buf = append(buf, in.Abs...)
		buf = append(buf, 0)
		if in.Named {
			buf = append(buf, 1)
		}
		for _, v := range [...]uint64{uint64(s.Size), uint64(s.Mtime), uint64(s.Ctime), s.Ino, s.Dev} {
			buf = binary.LittleEndian.AppendUint64(buf, v)
		}
		parts = append(parts, buf[start:])
	}
	return cache.NewKey(parts...), newest, true
}

// older reports a stamp whose times are all far enough before written
// (unix nanoseconds) that a write after it would show in them.
func (s fileStamp) older(written int64) bool {
	return max(s.Mtime, s.Ctime) < written-int64(racyWindow)
}
