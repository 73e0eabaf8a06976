//go:build linux

package hugeheap

import (
	"os"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// reserve allocates one block of Size bytes, which the runtime maps fresh
// and never writes (a fresh span needs no zeroing), advises its range
// MADV_HUGEPAGE, and frees it with a collection: the heap's next
// allocations take those pages, faulted 2 MiB at a time.
func reserve() {
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		return
	}
	block := make([]byte, Size)
	_ = unix.Madvise(block, unix.MADV_HUGEPAGE) // best effort: no huge pages, no harm
	block = nil
	runtime.GC()
}
