package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/sglint/sglint/internal/lsp"
)

const serverUsage = `sglint server: the language server, for editors.

Usage: sglint server [--no-cache] [-j N]

It speaks the Language Server Protocol on standard input and output; the
editor starts it (see docs/editors.md). It checks the open files and the
project around them as ` + "`sglint PATH`" + ` does, with each file's configuration.

Flags:
  --no-cache            do not read or write the cache
  -j, --jobs N          parallel workers (default: number of CPUs)
  -h, --help            this help
`

// server is `sglint server [--no-cache] [-j N]`: the language server, on
// standard input and output (see internal/lsp and docs/editors.md).
func server(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var noCache bool
	var jobs int
	fl := newFlagSet()
	fl.BoolVar(&noCache, "no-cache", false, "")
	fl.IntVar(&jobs, "jobs", 0, "")
	fl.IntVar(&jobs, "j", 0, "")
	rest, err := parseInterspersed(fl, args)
	switch {
	case err != nil:
	case len(rest) > 0:
		err = fmt.Errorf("server takes no arguments (it speaks the Language Server Protocol on standard input and output), got %q", rest[0])
	case jobs < 0:
		err = fmt.Errorf("--jobs must be at least 1 (0 means the number of CPUs), got %d", jobs)
	}
	if errors.Is(err, errHelp) {
		fmt.Fprint(stdout, serverUsage)
		return ExitClean
	}
	if err != nil {
		return usageError(stdout, stderr, err)
	}
	return lsp.Run(context.Background(), stdin, stdout, lsp.Options{Version: version(), Rules: registry(),
		Jobs: jobs, NoCache: noCache, Stderr: stderr})
}
