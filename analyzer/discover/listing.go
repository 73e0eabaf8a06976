package discover

import (
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// The walk itself is sequential, so that what it finds and the problems it
// meets do not depend on timing. The files it found are stat'ed together
// at the end. (Reading the listings of the directories ahead of the walk
// saved nothing measurable on sglang trees, and went.)

// statWorkers bounds the workers that stat the files found (settle).
// The calls block in the kernel more than they compute, so a few more than
// the CPUs keep them busy.
var statWorkers = max(4, 2*runtime.GOMAXPROCS(0))

// listing is one directory's entries, sorted by name, with its identity.
type listing struct {
	info    fs.FileInfo
	entries []entry
	openErr error // the directory could not be opened
	statErr error
	readErr error

	// keep is what Options.Listings records of this listing if the walk
	// enters the directory (Listings.use); nil for none. reused: it came
	// from the last walk's record.
	keep   *savedDir
	reused bool
}

// read opens, identifies (fstat, not a second path lookup) and lists one
// directory, then does what the platform does with a fresh listing
// (afterRead).
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
	l.afterRead(abs)
}

// entry is one name in a listing. Where the platform allows, a Python
// file's stat is taken with the listing (info, or err if it failed);
// otherwise info is nil and settle stats the file.
type entry struct {
	name string
	typ  fs.FileMode // the type bits only
	info fs.FileInfo
	err  error
}

// hasEntry reports whether a sorted listing holds name.
func hasEntry(es []entry, name string) bool {
	_, found := slices.BinarySearchFunc(es, name, func(e entry, n string) int { return strings.Compare(e.name, n) })
	return found
}

func sortEntries(es []entry) {
	slices.SortFunc(es, func(a, b entry) int { return strings.Compare(a.name, b.name) })
}

// readListing fills l: from Options.Listings when the directory has not
// changed, else from disk; either is kept for the next walk if this one
// enters the directory.
func (w *walker) readListing(abs string, l *listing) {
	c := w.opts.Listings
	if c != nil && c.reuse(abs, l) {
		return
	}
	l.read(abs)
	if c != nil {
		l.keepRead()
	}
}

// listingOf reads the listing of abs.
func (w *walker) listingOf(abs string) *listing {
	l := &listing{}
	w.readListing(abs, l)
	return l
}

// reachedFile is a file as the walk met it.
type reachedFile struct {
	abs      string
	shown    string      // display path, "" until settle computes it
	info     fs.FileInfo // nil until settle stats it (unless err is set)
	err      error
	explicit bool
}

// settle stats the files found by walks, in parallel, then keeps each file
// once, in the order it was reached: the first path that reached a file is
// the one listed.
func (w *walker) settle() {
	var pending []int
	for i, f := range w.reached {
		if f.info == nil && f.err == nil {
			pending = append(pending, i)
		}
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(statWorkers, len(pending)) {
		wg.Go(func() {
			for i := range next {
				f := &w.reached[i]
				f.info, f.err = os.Lstat(f.abs)
			}
		})
	}
	for _, i := range pending {
		next <- i
	}
	close(next)
	wg.Wait()
	w.files = slices.Grow(w.files, len(w.reached))
	for _, f := range w.reached {
		if f.shown == "" {
			f.shown = w.display(f.abs)
		}
		if f.err != nil {
			w.fail(f.shown, statMessage(f.abs, f.err))
			continue
		}
		key := keyOf(f.abs, f.info)
		if i, ok := w.seenFiles[key]; ok {
			w.files[i].Explicit = w.files[i].Explicit || f.explicit
			continue
		}
		w.seenFiles[key] = len(w.files)
		w.files = append(w.files, File{Path: f.shown, Abs: f.abs, Explicit: f.explicit, Info: f.info})
	}
	w.reached = nil
}
