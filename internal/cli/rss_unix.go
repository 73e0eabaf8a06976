//go:build unix

package cli

import (
	"fmt"
	"runtime"
	"syscall"
)

// peakRSS is the process's peak resident set size so far.
func peakRSS() string {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return "unknown"
	}
	kib := int64(ru.Maxrss) // KiB on Linux and the BSDs
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		kib /= 1024 // bytes there
	}
	return fmt.Sprintf("%.1f MiB", float64(kib)/1024)
}
