// Package replay keeps the output of a check run with the stamps of every
// file and directory it depended on, and gives that output again, without
// running, when the same command meets them all unchanged: a build tool's
// up-to-date check, for the run users repeat most (nothing changed since).
//
// What a run depends on, outside its command line, working directory and
// terminal: the Python files it found and the directories it listed (a
// file added, removed or renamed changes its directory's times), the
// directories above the paths it was given (where the project root and
// configuration files are looked for), the configuration and .gitignore
// files in any of those, the repository's info/exclude, the records and
// the baseline. A run is recorded only when it met no problem at all, and
// only on Linux, where the walk reports what it listed. A stamp is size,
// modification and change times, inode and device; one taken less than
// two seconds before the run began is not trusted (git's racy-clean rule),
// so a file changed while a run read it is never replayed.
package replay

import (
	"cmp"
	"encoding/binary"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/sglint/sglint/internal/binrec"
	"github.com/sglint/sglint/internal/stamp"
)

// Stamp is a file's or directory's size (files only), times and identity;
// one taken less than stamp.RacyWindow before a run began is not trusted.
type Stamp = stamp.Stamp

// Record is one run's output and what it depended on.
type Record struct {
	Began   int64 // unix nanoseconds
	Exit    int
	Stdout  []byte
	Stderr  []byte
	entries []entry
	seen    map[string]bool

	// stamps is the encoding of n entries, newest first: a decoded record
	// has only that (Holds reads it as it goes); one being built has it
	// once EncodeStamps made it, until the next Add.
	stamps string
	n      int
	// base is the directory the encoded paths under it are relative to
	// (the deepest one above every Python file recorded): a stat from an
	// open directory walks fewer names, and the record is shorter.
	base string
}

type entry struct {
	path  string
	kind  uint8 // mustMatch, mustBeMissing, mustBeDir
	stamp Stamp
}

const (
	mustMatch     = iota // the same stamp
	mustBeMissing        // still absent
	mustBeDir            // still a directory, whatever its times (a .git directory changes often)
)

// New starts the record of a run that began at began.
func New(began time.Time) *Record {
	return &Record{Began: began.UnixNano(), seen: map[string]bool{}}
}

// Grow makes room for n more paths, so that a record of thousands grows
// its entries and their index once.
func (r *Record) Grow(n int) {
	r.entries = slices.Grow(r.entries, n)
	if len(r.seen) == 0 {
		r.seen = make(map[string]bool, n)
	}
}

// Supported reports whether runs can be recorded here.
func Supported() bool { return stamp.Full }

// Add records path with the stamp it was read under; false if the stamp
// is unknown, and the record must then not be kept.
func (r *Record) Add(path string, info fs.FileInfo) bool {
	st, ok := stamp.Of(info)
	if !ok {
		return false
	}
	r.AddStamp(path, st)
	return true
}

// AddStamp records path with a known stamp.
func (r *Record) AddStamp(path string, st Stamp) { r.add(entry{path: path, stamp: st}) }

func (r *Record) add(e entry) {
	if r.seen[e.path] {
		return
	}
	r.seen[e.path] = true
	r.entries = append(r.entries, e)
	r.stamps, r.n = "", 0
}

// AddNow stats path (following links) and records its stamp, or that it
// is missing; false means the record must not be kept.
func (r *Record) AddNow(path string) bool {
	if r.seen[path] {
		return true
	}
	// Read as Holds reads it: a name looked up under a file
	// (pkg/a.py/pyproject.toml, when the climb starts at a named file) is
	// missing too.
	st, exists, _, ok := stamp.Path(path)
	switch {
	case !ok:
		return false
	case !exists:
		r.AddMissing(path)
	default:
		r.AddStamp(path, st)
	}
	return true
}

// AddMissing records that path does not exist (the caller's stat said
// so).
func (r *Record) AddMissing(path string) { r.add(entry{path: path, kind: mustBeMissing}) }

// AddDir records that path is a directory, whatever its stamp.
func (r *Record) AddDir(path string) { r.add(entry{path: path, kind: mustBeDir}) }

const magic = "sglint replay 4\n"

// The encoding: magic, the time the run began, the base directory, the
// number of entries, the entries (paths under the base relative to it,
// the others absolute), then the exit status and the output. The entries
// come first so that they can be encoded while the run goes on
// (EncodeStamps), and the output appended when it ends.

// EncodeStamps encodes the entries now, so that Encode only appends the
// output: a run calls it in the background, before its end.
func (r *Record) EncodeStamps() {
	// The most recently changed first: Holds stops at the first stamp that
	// differs, and a file just edited is the likeliest to be edited again.
	es := slices.Clone(r.entries)
	slices.SortFunc(es, func(a, b entry) int {
		return cmp.Or(cmp.Compare(max(b.stamp.Mtime, b.stamp.Ctime), max(a.stamp.Mtime, a.stamp.Ctime)),
			strings.Compare(a.path, b.path))
	})
	r.base = baseOf(es)
	size := 0
	for i := range es {
		size += 2 + len(es[i].path) + entrySize // a path's length takes 2 bytes below 16 KiB
	}
	out := make([]byte, 0, size)
	for _, e := range es {
		out = binrec.AppendString(out, relativeTo(r.base, e.path))
		out = append(out, e.kind)
		out = e.stamp.Append(out)
	}
	r.stamps, r.n = unsafe.String(unsafe.SliceData(out), len(out)), len(es)
}

// Encode writes the record.
func (r *Record) Encode() []byte {
	if r.stamps == "" && len(r.entries) > 0 {
		r.EncodeStamps()
	}
	out := make([]byte, 0, len(magic)+32+len(r.base)+len(r.stamps)+len(r.Stdout)+len(r.Stderr))
	out = append(out, magic...)
	out = binary.LittleEndian.AppendUint64(out, uint64(r.Began))
	out = binrec.AppendString(out, r.base)
	out = binary.AppendUvarint(out, uint64(r.n))
	out = append(out, r.stamps...)
	out = binary.AppendVarint(out, int64(r.Exit))
	out = binrec.AppendString(out, string(r.Stdout))
	out = binrec.AppendString(out, string(r.Stderr))
	return out
}

// entrySize is the size of an entry after its path.
const entrySize = 1 + stamp.EncodedSize

// Decode reads a record Encode wrote; nil if data is not one. The record
// shares data's memory, which must not change afterwards. Its entries are
// only checked for their sizes here: Holds reads them.
func Decode(data []byte) *Record {
	// No copy (string(data) would copy the whole record): every path is
	// a substring of it.
	s := unsafe.String(unsafe.SliceData(data), len(data))
	if !strings.HasPrefix(s, magic) {
		return nil
	}
	d := binrec.Reader{S: s, Off: len(magic)}
	r := &Record{Began: int64(d.Uint64())}
	r.base = d.Str()
	n := d.Uvarint()
	if d.Bad || n > uint64(len(s)) {
		return nil
	}
	start := d.Off
	for range n {
		d.Str()
		if d.Off += entrySize; d.Bad || d.Off > len(s) {
			return nil
		}
	}
	r.stamps, r.n = s[start:d.Off], int(n)
	r.Exit = int(d.Varint())
	r.Stdout = []byte(d.Str())
	r.Stderr = []byte(d.Str())
	if !d.Done() {
		return nil
	}
	return r
}

// decodeEntry reads the entry at d, which Decode checked.
func decodeEntry(d *binrec.Reader) (e entry, ok bool) {
	e.path = d.Str()
	if e.kind = d.Byte(); e.kind > mustBeDir {
		return e, false
	}
	e.stamp = stamp.Read(d)
	return e, !d.Bad
}

// Holds reports whether every path recorded still has its stamp, and
// each was old enough when the run began that a later change shows.
func (r *Record) Holds() bool {
	if r.stamps == "" && len(r.entries) > 0 {
		r.EncodeStamps() // a record being built: read as a decoded one
	}
	if r.n == 0 {
		return false
	}
	dir, ok := r.openBase()
	if !ok {
		return false // it was a directory the run listed
	}
	if dir != nil {
		defer dir.Close()
	}
	d := binrec.Reader{S: r.stamps}
	st := stamp.Statter{Dir: dir}
	// The first few alone, as they are read: the file an edit run follows
	// was changed last, so it comes first, and such a run stops there
	// before the others are even read.
	for range min(r.n, firstAlone) {
		e, ok := decodeEntry(&d)
		if !ok || !r.holds(&e, &st) {
			return false
		}
	}
	rest := r.n - min(r.n, firstAlone)
	if rest == 0 {
		return true
	}
	// The rest in chunks, read where they are encoded (a pass over their
	// lengths finds where each chunk starts), so that none is copied out.
	chunks := make([]int, 0, rest/chunkSize+2) // offsets in r.stamps
	for i := range rest {
		if i%chunkSize == 0 {
			chunks = append(chunks, d.Off)
		}
		d.Str()
		if d.Off += entrySize; d.Bad || d.Off > len(r.stamps) {
			return false
		}
	}
	chunks = append(chunks, d.Off)
	return inChunks(len(chunks)-1, dir, func(c int, st *stamp.Statter) bool {
		d := binrec.Reader{S: r.stamps[:chunks[c+1]], Off: chunks[c]}
		for d.Off < len(d.S) {
			e, ok := decodeEntry(&d)
			if !ok || !r.holds(&e, st) {
				return false
			}
		}
		return true
	})
}

// openBase opens the record's base directory, which its relative paths
// are stat'ed from: nil and true for a record without one, false when it
// cannot be opened.
func (r *Record) openBase() (*stamp.Dir, bool) {
	if r.base == "" {
		return nil, true
	}
	dir, err := stamp.OpenDir(r.base)
	return dir, err == nil
}

// inChunks runs check on chunks 0 to n-1, each worker with a statter
// under dir, and reports whether every chunk passed. There are as
// many workers as the CPUs the runtime uses, this goroutine one of them:
// the stats are short, and more goroutines only cost threads. They take
// the chunks as each comes for more, not split ahead, since a second
// worker may start a millisecond late here and a worker lose its CPU for
// as long. The first chunk refused stops them all (an edit run would pay
// for the rest).
func inChunks(n int, dir *stamp.Dir, check func(c int, st *stamp.Statter) bool) bool {
	var next atomic.Int32
	var failed atomic.Bool
	work := func() {
		st := stamp.Statter{Dir: dir}
		for !failed.Load() {
			c := int(next.Add(1)) - 1
			if c >= n {
				return
			}
			if !check(c, &st) {
				failed.Store(true)
			}
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return !failed.Load()
}

// baseOf is the deepest directory above every Python file es found (not
// the names looked up and missing: setup.py is looked for up to the root),
// "" if there is none.
func baseOf(es []entry) string {
	base, found := "", false
	for i := range es {
		p := es[i].path
		if es[i].kind != mustMatch || !strings.HasSuffix(p, ".py") || !strings.HasPrefix(p, "/") {
			continue
		}
		if !found {
			base, found = p[:strings.LastIndexByte(p, '/')], true
		}
		for base != "" && !(len(p) > len(base) && p[len(base)] == '/' && strings.HasPrefix(p, base)) {
			base = base[:strings.LastIndexByte(base, '/')]
		}
	}
	return base // "" for the root directory too: paths stay absolute
}

// relativeTo is path relative to base when it is under it ("." for base
// itself), path unchanged otherwise: relpath.Inside's test, for the clean
// absolute paths of a record and without allocating (it runs per entry).
func relativeTo(base, path string) string {
	switch {
	case base == "":
		return path
	case path == base:
		return "."
	case strings.HasPrefix(path, base) && len(path) > len(base) && path[len(base)] == '/':
		return path[len(base)+1:]
	}
	return path
}

// chunkSize is how many entries a replay check's worker takes at a time.
const chunkSize = 32

// firstAlone is how many entries Holds checks before it starts workers.
const firstAlone = 8

// holds reports whether e's path still has its stamp.
func (r *Record) holds(e *entry, st *stamp.Statter) bool {
	ok, _ := r.holdsDir(e, st)
	return ok
}

// holdsDir is holds, and whether the path is a directory now.
func (r *Record) holdsDir(e *entry, st *stamp.Statter) (holds, isDir bool) {
	got, exists, isDir, ok := st.Path(e.path)
	switch {
	case !ok:
		return false, false
	case e.kind == mustBeMissing:
		return !exists, isDir
	case e.kind == mustBeDir:
		return isDir, isDir
	}
	return exists && got == e.stamp && got.Older(r.Began), isDir
}

// Len is the number of paths recorded.
func (r *Record) Len() int { return max(len(r.entries), r.n) }
