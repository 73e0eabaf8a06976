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
// meets do not depend on timing. The system calls under it need not be: the
// listings of the directories it will enter are read ahead, and the files
// it found are stat'ed together at the end. On a tree of a few thousand
// files these calls are most of a warm run.

// aheadSlots bounds the directories read at once, and the stat workers.
// The calls block in the kernel more than they compute, so a few more than
// the CPUs keep them busy.
var aheadSlots = max(4, 2*runtime.GOMAXPROCS(0))

// listing is one directory's entries, sorted by name, with its identity.
type listing struct {
	done    chan struct{}
	info    fs.FileInfo
	entries []fs.DirEntry
	openErr error // the directory could not be opened
	statErr error
	readErr error
}

// readListing opens, identifies (fstat, not a second path lookup) and
// lists one directory.
func readListing(abs string) *listing {
	l := &listing{}
	d, err := os.Open(abs)
	if err != nil {
		l.openErr = err
		return l
	}
	defer d.Close()
	if l.info, l.statErr = d.Stat(); l.statErr != nil {
		return l
	}
	l.entries, l.readErr = d.ReadDir(-1)
	slices.SortFunc(l.entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return l
}

// readAhead starts reading the listing of a directory the walk will enter.
func (w *walker) readAhead(abs string) {
	w.aheadMu.Lock()
	defer w.aheadMu.Unlock()
	if _, ok := w.ahead[abs]; ok {
		return
	}
	l := &listing{done: make(chan struct{})}
	w.ahead[abs] = l
	go func() {
		w.slots <- struct{}{}
		r := readListing(abs)
		<-w.slots
		l.info, l.entries, l.openErr, l.statErr, l.readErr = r.info, r.entries, r.openErr, r.statErr, r.readErr
		close(l.done)
	}()
}

// listingOf returns the listing of abs: the one read ahead, or read now.
func (w *walker) listingOf(abs string) *listing {
	w.aheadMu.Lock()
	l, ok := w.ahead[abs]
	delete(w.ahead, abs)
	w.aheadMu.Unlock()
	if !ok {
		return readListing(abs)
	}
	<-l.done
	return l
}

// reachedFile is a file as the walk met it.
type reachedFile struct {
	abs      string
	info     fs.FileInfo // nil until settle stats it
	err      error
	explicit bool
}

// settle stats the files found by walks, in parallel, then keeps each file
// once, in the order it was reached: the first path that reached a file is
// the one listed.
func (w *walker) settle() {
	var pending []int
	for i, f := range w.reached {
		if f.info == nil {
			pending = append(pending, i)
		}
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(aheadSlots, len(pending)) {
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
	for _, f := range w.reached {
		if f.err != nil {
			w.fail(w.display(f.abs), statMessage(f.abs, f.err))
			continue
		}
		key := keyOf(f.abs, f.info)
		if i, ok := w.seenFiles[key]; ok {
			w.files[i].Explicit = w.files[i].Explicit || f.explicit
			continue
		}
		w.seenFiles[key] = len(w.files)
		w.files = append(w.files, File{Path: w.display(f.abs), Abs: f.abs, Explicit: f.explicit, Info: f.info})
	}
	w.reached = nil
}
