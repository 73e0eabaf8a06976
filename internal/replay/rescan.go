//go:build linux && (amd64 || arm64)

package replay

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/sglint/sglint/internal/binrec"
	"github.com/sglint/sglint/internal/stamp"
)

// Rescan is what a record's paths say now, when everything the run
// depended on holds but the stamps of some of its input files: the input
// set with today's stats, the directories the run listed, and the record
// of a run that takes that set.
type Rescan struct {
	Root   string
	Inputs []Input
	// Dirs are the directories the run listed, absolute and sorted (parents
	// first); Has tells the names recorded present in them.
	Dirs []string

	base    string
	entries []entry             // with today's stamps, paths as recorded
	present map[string][]string // the other files recorded present, by directory as recorded
}

// Rescan stats every path r holds, as Holds does, and returns the input
// set of inputs (what EncodeInputs wrote for r's run) to run on, if
// nothing changed but input files, each still a regular file; false
// otherwise (a file added, removed or renamed, a settings file changed, a
// path that cannot be stat'ed, inputs of another run), when the run must
// walk. r is a decoded record.
func (r *Record) Rescan(inputs []byte) (*Rescan, bool) {
	if r.stamps == "" || r.n == 0 {
		return nil, false
	}
	es := make([]entry, r.n)
	d := binrec.Reader{S: r.stamps}
	for i := range es {
		var ok bool
		if es[i], ok = decodeEntry(&d); !ok {
			return nil, false
		}
	}
	root, ins, inputOf, ok := r.decodeInputs(inputs, es)
	if !ok {
		return nil, false
	}
	dir, ok := r.openBase()
	if !ok {
		return nil, false
	}
	if dir != nil {
		defer dir.Close()
	}
	isDir := make([]bool, len(es))
	infos := make([]fileInfo, len(ins))
	held := inChunks((len(es)+chunkSize-1)/chunkSize, dir, func(c int, st *stamp.Statter) bool {
		var raw syscall.Stat_t
		for i := c * chunkSize; i < min((c+1)*chunkSize, len(es)); i++ {
			e := &es[i]
			if k := inputOf[i]; k > 0 {
				if st.Stat(e.path, &raw) != nil || raw.Mode&syscall.S_IFMT != syscall.S_IFREG {
					return false
				}
				e.stamp = stamp.OfStat(&raw)
				infos[k-1] = fileInfo{stamp: e.stamp, perm: fs.FileMode(raw.Mode & 0o777)}
				continue
			}
			holds, dir := r.holdsDir(e, st)
			if !holds {
				return false
			}
			isDir[i] = dir && e.kind == mustMatch
		}
		return true
	})
	if !held {
		return nil, false
	}
	s := &Rescan{Root: root, Inputs: ins, base: r.base, entries: es, present: map[string][]string{}}
	for k := range ins {
		infos[k].name = filepath.Base(ins[k].Abs)
		ins[k].Info, ins[k].Abs = &infos[k], s.abs(ins[k].Abs)
	}
	for i := range es {
		switch {
		case isDir[i]:
			s.Dirs = append(s.Dirs, s.abs(es[i].path))
		case es[i].kind == mustMatch && inputOf[i] == 0:
			p := es[i].path
			dir, name := ".", p
			if j := strings.LastIndexByte(p, '/'); j >= 0 {
				dir, name = p[:max(j, 1)], p[j+1:] // "/x" is in "/"
			}
			s.present[dir] = append(s.present[dir], name)
		}
	}
	slices.Sort(s.Dirs)
	return s, true
}

// abs is a path as recorded, made absolute.
func (s *Rescan) abs(p string) string {
	switch {
	case filepath.IsAbs(p) || s.base == "":
		return p
	case p == ".":
		return s.base
	}
	return s.base + "/" + p
}

// Has reports whether the record holds name in dir (absolute) as a file
// present other than an input: a directory's settings and ignore files,
// which the run looked for by name.
func (s *Rescan) Has(dir, name string) bool {
	return slices.Contains(s.present[relativeTo(s.base, dir)], name)
}

// Record starts the record of a run that began at began and takes the
// rescanned input set: the same paths, with today's stamps.
func (s *Rescan) Record(began time.Time) *Record {
	r := New(began)
	r.Grow(len(s.entries))
	for _, e := range s.entries {
		e.path = s.abs(e.path)
		r.add(e)
	}
	return r
}

// fileInfo is an input's stat: what the caches read of it is its stamp
// (stamp.Of takes it from Stamp, not from a raw stat).
type fileInfo struct {
	name  string
	stamp stamp.Stamp
	perm  fs.FileMode
}

func (f *fileInfo) Name() string               { return f.name }
func (f *fileInfo) Size() int64                { return f.stamp.Size }
func (f *fileInfo) Mode() fs.FileMode          { return f.perm }
func (f *fileInfo) ModTime() time.Time         { return time.Unix(0, f.stamp.Mtime) }
func (f *fileInfo) IsDir() bool                { return false }
func (f *fileInfo) Sys() any                   { return nil }
func (f *fileInfo) Stamp() (stamp.Stamp, bool) { return f.stamp, true }
