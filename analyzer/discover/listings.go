package discover

import (
	"encoding/binary"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/sglint/sglint/internal/binrec"
	"github.com/sglint/sglint/internal/stamp"
)

// Listings keeps directory listings from one walk to the next, as git's
// untracked cache does. A directory's entries change only when one is
// added, removed or renamed, and each of those sets the directory's mtime
// and ctime. So a directory whose stamp (times and identity) is the one
// recorded, and was old enough when recorded that a later change would
// show in it, is not listed again: it is stat'ed instead of opened, stat'ed,
// read and closed. Its Python files are still stat'ed, one by one: an edit
// changes a file, not its directory.
//
// A walk of a few thousand directories spends much of its time in those
// calls, and a run over an unchanged tree is mostly its walk. Listings are
// kept on Linux only (listing_other.go).
type Listings struct {
	// written is when the recorded listings were read (unix nanoseconds):
	// a directory changed within stamp.RacyWindow before it may have changed
	// again within the same timestamp tick, and is read again.
	written int64
	saved   map[string]savedDir // read only once decoded: no lock
	now     int64               // when this walk began: the next walk's written

	// mu guards what the walk writes: the walk runs on one goroutine, but
	// Encode, Changed and Walked are the caller's, which may read from
	// another once Find returned (a cache written in the background).
	mu     sync.Mutex
	used   map[string]savedDir // this walk's listings, by absolute path
	roots  []string            // the directories walked from
	read   int                 // listings read from disk
	reused int
}

type savedDir struct {
	stamp   DirStamp
	entries []entry // names and types only
}

// DirStamp is what changes when a directory's entries change (its times),
// and its identity; a directory's stamp has no size.
type DirStamp = stamp.Stamp

const listingsMagic = "sglint listings 2\n" // 2: stamps in stamp.Append's layout

// DecodeListings returns the listings recorded by Encode; data that is
// missing or cannot be read gives none (every directory is read). The
// listings share data's memory, which must not change afterwards.
func DecodeListings(data []byte) *Listings {
	l := &Listings{saved: map[string]savedDir{}, used: map[string]savedDir{}, now: time.Now().UnixNano()}
	if saved, written, ok := decodeListings(data); ok {
		l.saved, l.written = saved, written
	}
	return l
}

// decodeListings reads the format Encode writes. Every name is a substring
// of data, not copied: decoding allocates per directory, not per entry.
func decodeListings(data []byte) (map[string]savedDir, int64, bool) {
	s := unsafe.String(unsafe.SliceData(data), len(data))
	if !strings.HasPrefix(s, listingsMagic) {
		return nil, 0, false
	}
	r := binrec.Reader{S: s, Off: len(listingsMagic)}
	written := int64(r.Uint64())
	n := r.Uvarint()
	if r.Bad || n > uint64(len(s)) {
		return nil, 0, false
	}
	saved := make(map[string]savedDir, n)
	for range n {
		dir := r.Str()
		st := stamp.Read(&r)
		k := r.Uvarint()
		if r.Bad || k > uint64(len(s)) {
			return nil, 0, false
		}
		es := make([]entry, k)
		for i := range es {
			es[i].name = r.Str()
			es[i].typ = fs.FileMode(r.Uint32())
		}
		if r.Bad {
			return nil, 0, false
		}
		saved[dir] = savedDir{stamp: st, entries: es}
	}
	return saved, written, r.Done()
}

// Encode records the listings this walk used, and those recorded before
// for directories outside the directories walked (a run on part of a tree
// keeps the rest).
func (l *Listings) Encode() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	all := make(map[string]savedDir, len(l.used)+len(l.saved))
	for dir, sd := range l.saved {
		if !l.underRoot(dir) {
			all[dir] = sd
		}
	}
	for dir, sd := range l.used {
		all[dir] = sd
	}
	dirs := make([]string, 0, len(all))
	for dir := range all {
		dirs = append(dirs, dir)
	}
	slices.Sort(dirs)
	out := []byte(listingsMagic)
	out = binary.LittleEndian.AppendUint64(out, uint64(l.now))
	out = binary.AppendUvarint(out, uint64(len(dirs)))
	for _, dir := range dirs {
		sd := all[dir]
		out = binrec.AppendString(out, dir)
		out = sd.stamp.Append(out)
		out = binary.AppendUvarint(out, uint64(len(sd.entries)))
		for _, e := range sd.entries {
			out = binrec.AppendString(out, e.name)
			out = binary.LittleEndian.AppendUint32(out, uint32(e.typ))
		}
	}
	return out
}

// Changed reports whether Encode would record anything new: a listing was
// read from disk, or one recorded under a walked directory was not used
// (the directory is gone or now excluded).
func (l *Listings) Changed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.read > 0 {
		return true
	}
	for dir := range l.saved {
		if _, ok := l.used[dir]; !ok && l.underRoot(dir) {
			return true
		}
	}
	return false
}

// Walked calls f, once Find has returned, for each directory the walk
// listed (read, or reused unchanged), in path order, with the stamp the listing was taken under
// and a lookup of its entries' names.
func (l *Listings) Walked(f func(dir string, st DirStamp, has func(name string) bool)) {
	l.mu.Lock()
	dirs := make([]string, 0, len(l.used))
	for dir := range l.used {
		dirs = append(dirs, dir)
	}
	used := l.used // the walk is over: nothing adds to it any more
	l.mu.Unlock()
	slices.Sort(dirs)
	for _, dir := range dirs {
		sd := used[dir]
		f(dir, sd.stamp, func(name string) bool { return hasEntry(sd.entries, name) })
	}
}

// counts returns how many listings this walk reused and read from disk.
func (l *Listings) counts() (reused, read int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reused, l.read
}

func (l *Listings) underRoot(dir string) bool {
	return slices.ContainsFunc(l.roots, func(r string) bool { return within(dir, r) })
}

func (l *Listings) walkedFrom(abs string) {
	l.mu.Lock()
	l.roots = append(l.roots, abs)
	l.mu.Unlock()
}

// reuse fills lst from the recorded listing of abs if the directory has
// not changed since; false if it must be read.
func (l *Listings) reuse(abs string, lst *listing) bool {
	sd, ok := l.saved[abs]
	if !ok {
		return false
	}
	unchanged := func(st DirStamp) bool {
		return st == sd.stamp && st.Older(l.written)
	}
	if !lst.reuse(abs, sd.entries, unchanged) {
		return false
	}
	lst.keep, lst.reused = &sd, true
	return true
}

// keepRead notes a listing read from disk, for the next walk if this one
// enters the directory (Listings.use).
func (lst *listing) keepRead() {
	if lst.openErr != nil || lst.statErr != nil || lst.readErr != nil || lst.info == nil {
		return
	}
	st, ok := dirStampOf(lst.info)
	if !ok {
		return
	}
	es := make([]entry, len(lst.entries))
	for i, e := range lst.entries {
		es[i] = entry{name: e.name, typ: e.typ}
	}
	lst.keep = &savedDir{stamp: st, entries: es}
}

// use keeps the listing of a directory the walk entered: only those go
// into the record, and into what a replay watches.
func (l *Listings) use(abs string, lst *listing) {
	if lst.keep == nil {
		return
	}
	l.mu.Lock()
	l.used[abs] = *lst.keep
	if lst.reused {
		l.reused++
	} else {
		l.read++
	}
	l.mu.Unlock()
}
