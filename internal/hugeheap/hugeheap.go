// Package hugeheap asks the kernel to back the Go heap with transparent
// huge pages, for the short processes of a check run.
//
// A run that is not replayed builds a heap of 15 to 45 MiB in a few tens of
// milliseconds. With 4 KiB pages the kernel takes a fault, charges and
// zeroes a page for each 4 KiB first touched: about 4,000 faults in an
// edit run on an sglang tree, 12,000 in a cold one, a tenth of the run's
// CPU. Go no longer advises its heap for huge pages (since 1.21.1), and
// kernels are commonly set to give them only where advised
// (transparent_hugepage=madvise), so the heap gets none. One 2 MiB page
// replaces 512 faults.
package hugeheap

import "sync"

// Size is the part of the heap advised: an edit run's whole heap, most of
// a cold run's.
const Size = 32 << 20

var once sync.Once

// Reserve advises the next Size bytes of the heap for huge pages, once
// per process. It costs one collection of the (still small) heap, so it
// does nothing unless the kernel gives huge pages only where advised
// (transparent_hugepage "madvise"), or when GODEBUG=disablethp=1 asks for
// none.
func Reserve() { once.Do(reserve) }
