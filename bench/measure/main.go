//go:build bench

// Command measure runs a command once and appends "wall cpu rss_kib" to a
// file: wall time in seconds to the microsecond, user plus system CPU
// seconds, and the peak resident set in KiB. GNU time's %e rounds wall
// time to 10 ms, too coarse for runs that take 10 to 30 ms.
//
// Usage: measure OUT CMD [ARG...]
//
// The command's standard streams are this program's; its exit status is
// passed on (a signal gives 128+n), so callers can tell findings from
// failures.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: measure OUT CMD [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	case err != nil:
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(2)
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	var cpu float64
	var rss int64
	if ru != nil {
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
		rss = ru.Maxrss // KiB on Linux
	}
	f, ferr := os.OpenFile(os.Args[1], os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if ferr == nil {
		_, ferr = fmt.Fprintf(f, "%.6f %.3f %d\n", wall.Seconds(), cpu, rss)
		if cerr := f.Close(); ferr == nil {
			ferr = cerr
		}
	}
	if ferr != nil {
		fmt.Fprintln(os.Stderr, "measure:", ferr)
		os.Exit(2)
	}
	os.Exit(code)
}
