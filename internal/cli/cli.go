// Package cli parses sglint's command line and wires discovery, the engine
// and the output formats together.
package cli

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/rules"
)

// Exit codes.
const (
	ExitClean    = 0
	ExitFindings = 1
	ExitError    = 2
)

// Main runs sglint with args and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("sglint", flag.ContinueOnError)
	fl.SetOutput(stderr)
	jobs := fl.Int("jobs", runtime.NumCPU(), "number of parallel workers")
	fl.IntVar(jobs, "j", runtime.NumCPU(), "shorthand for --jobs")
	if err := fl.Parse(args); err != nil {
		return ExitError
	}
	paths := fl.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var inputs []analyzer.Input
	for _, p := range paths {
		err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".py") {
				inputs = append(inputs, analyzer.Input{Path: filepath.ToSlash(path), Abs: path, Report: true})
			}
			return nil
		})
		if err != nil {
			fmt.Fprintf(stderr, "sglint: %v\n", err)
			return ExitError
		}
	}
	res := analyzer.Run(inputs, analyzer.Options{Rules: rules.All(), Jobs: *jobs})
	for _, p := range res.Problems {
		fmt.Fprintf(stderr, "sglint: %s\n", p)
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(stdout, "%s:%d:%d: %s %s\n", d.Path, d.Start.Line, d.Start.Column, d.Rule.ID, d.Message)
	}
	if len(res.Diagnostics) > 0 {
		return ExitFindings
	}
	return ExitClean
}
