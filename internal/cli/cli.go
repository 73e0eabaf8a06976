// Package cli parses sglint's command line and wires discovery, the engine
// and the output formats together.
package cli

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/rules"
)

// Exit codes.
const (
	ExitClean    = 0
	ExitFindings = 1
	ExitError    = 2
)

// globList is a repeatable string flag.
type globList []string

func (g *globList) String() string     { return strings.Join(*g, ",") }
func (g *globList) Set(v string) error { *g = append(*g, v); return nil }

// Main runs sglint with args and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("sglint", flag.ContinueOnError)
	fl.SetOutput(stderr)
	jobs := fl.Int("jobs", runtime.NumCPU(), "number of parallel workers")
	fl.IntVar(jobs, "j", runtime.NumCPU(), "shorthand for --jobs")
	var excludes globList
	fl.Var(&excludes, "exclude", "skip files and directories matching `GLOB` (repeatable)")
	if err := fl.Parse(args); err != nil {
		return ExitError
	}
	paths := fl.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}

	// A problem that is not a warning means something asked for was not
	// checked (or sglint failed): exit 2 after reporting everything else.
	failed := false
	opts := discover.DefaultOptions()
	opts.Exclude = excludes
	files, found := discover.Find(paths, opts)
	for _, p := range found {
		fmt.Fprintf(stderr, "sglint: %s\n", p)
		failed = failed || !p.Warning
	}
	inputs := make([]analyzer.Input, len(files))
	for i, f := range files {
		inputs[i] = analyzer.Input{Path: f.Path, Abs: f.Abs, Report: true}
	}
	res := analyzer.Run(inputs, analyzer.Options{Rules: rules.All(), Jobs: *jobs, Root: discover.ProjectRoot(paths)})
	for _, p := range res.Problems {
		fmt.Fprintf(stderr, "sglint: %s\n", p)
		failed = failed || !p.Warning
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(stdout, "%s:%d:%d: %s %s\n", d.Path, d.Start.Line, d.Start.Column, d.Rule.ID, d.Message)
	}
	switch {
	case failed:
		return ExitError
	case len(res.Diagnostics) > 0:
		return ExitFindings
	}
	return ExitClean
}
