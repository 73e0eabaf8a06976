//go:build linux

package hugeheap

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// advisedKiB sums the sizes of this process's mappings advised for huge
// pages ("hg" in their VmFlags).
func advisedKiB(t *testing.T) int {
	f, err := os.Open("/proc/self/smaps")
	require.NoError(t, err)
	defer f.Close()
	total, size := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 2 && fields[0] == "Size:":
			size, _ = strconv.Atoi(fields[1])
		case len(fields) >= 1 && fields[0] == "VmFlags:":
			for _, fl := range fields[1:] {
				if fl == "hg" {
					total += size
				}
			}
		}
	}
	require.NoError(t, sc.Err())
	return total
}

// Reserve leaves a heap range of at least Size advised for huge pages.
// (That the run's allocations then land there is measured, in page faults
// per run, not tested: docs/performance.md.)
func TestReserveAdvisesTheHeap(t *testing.T) {
	if !advisedOnly(thpMode()) {
		t.Skip("huge pages here are not given only where advised")
	}
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		t.Skip("GODEBUG=disablethp=1")
	}
	Reserve()
	Reserve() // once
	// Absolute, not a difference: with -count, a later block may take the
	// range an earlier one advised (nothing else in a test advises).
	require.GreaterOrEqual(t, advisedKiB(t), Size>>10-4<<10,
		"the block's range, less the pages the collection may have returned")
}

// The reservation costs one collection: the block's allocation, larger
// than the heap's goal, does not start one of its own.
func TestReserveCollectsOnce(t *testing.T) {
	if !advisedOnly(thpMode()) {
		t.Skip("huge pages here are not given only where advised")
	}
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		t.Skip("GODEBUG=disablethp=1")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100)) // a goal far below Size
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	reserve()
	runtime.ReadMemStats(&after)
	require.Equal(t, uint32(1), after.NumGC-before.NumGC)
	require.Equal(t, 100, debug.SetGCPercent(100), "the collector's setting is restored")
}

// Only a kernel that gives huge pages where advised, and only there, is
// worth the collection.
func TestAdvisedOnly(t *testing.T) {
	require.True(t, advisedOnly("always [madvise] never\n"))
	require.False(t, advisedOnly("[always] madvise never\n"))
	require.False(t, advisedOnly("always madvise [never]\n"))
	require.False(t, advisedOnly(""), "no such file")
}
