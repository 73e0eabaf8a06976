// Package cli parses sglint's command line and wires discovery, the engine
// and the output formats together. cmd/sglint only calls Main.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/output"
	"github.com/sglint/sglint/internal/didyoumean"
	"github.com/sglint/sglint/rules"
)

// Exit codes.
const (
	ExitClean    = 0 // no findings
	ExitFindings = 1 // findings (unless --exit-zero)
	ExitError    = 2 // usage error, unreadable explicit path, internal error
)

// Main runs sglint with args (without the program name) and returns the
// exit code. Findings go to stdout; problems and errors to stderr.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return check(args[1:], stdin, stdout, stderr)
		case "rules":
			return listRules(args[1:], stdout, stderr)
		case "explain":
			return explain(args[1:], stdout, stderr)
		case "version":
			return printVersion(args[1:], stdout, stderr)
		case "help":
			fmt.Fprint(stdout, usage)
			return ExitClean
		}
	}
	return check(args, stdin, stdout, stderr)
}

// checkOptions are the flags of a check run.
type checkOptions struct {
	format   string
	selected listFlag
	ignored  listFlag
	excludes listFlag
	exitZero bool
	jobs     int
	version  bool
}

func check(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o checkOptions
	fl := newFlagSet()
	fl.StringVar(&o.format, "format", "text", "")
	fl.Var(&o.selected, "select", "")
	fl.Var(&o.ignored, "ignore", "")
	fl.Var(&o.excludes, "exclude", "")
	fl.BoolVar(&o.exitZero, "exit-zero", false, "")
	fl.IntVar(&o.jobs, "jobs", 0, "")
	fl.IntVar(&o.jobs, "j", 0, "")
	fl.BoolVar(&o.version, "version", false, "")
	paths, err := parseInterspersed(fl, args)
	if err != nil {
		return usageError(stdout, stderr, err)
	}
	if o.version {
		return printVersion(nil, stdout, stderr)
	}
	format, err := output.Lookup(o.format)
	if err != nil {
		return usageError(stdout, stderr, fmt.Errorf("--format: %w", err))
	}
	if o.jobs < 0 {
		return usageError(stdout, stderr, fmt.Errorf("--jobs must be at least 1 (0 means the number of CPUs), got %d", o.jobs))
	}
	if o.jobs == 0 {
		o.jobs = runtime.NumCPU()
	}
	all := registry()
	selected, err := analyzer.SelectRules(all, analyzer.Selection{Select: o.selected, Ignore: o.ignored})
	if err != nil {
		var unknown *analyzer.UnknownSelectorError
		if errors.As(err, &unknown) {
			err = fmt.Errorf("%w%s", err, suggestRule(unknown.Selector, all))
		}
		return usageError(stdout, stderr, err)
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}

	// Something asked for and not checked, or a bug: exit 2, after checking
	// and reporting everything else. Warnings (a binary file, a dangling
	// link met in a walk) do not fail the run.
	failed := false
	inputs, problems, root := findInputs(paths, o.excludes, stdin)
	for _, p := range problems {
		fmt.Fprintf(stderr, "sglint: %s\n", p)
		failed = failed || !p.Warning
	}
	if len(inputs) == 0 && len(problems) == 0 {
		fmt.Fprintf(stderr, "sglint: warning: no Python files found under %s\n", strings.Join(paths, ", "))
	}
	cwd, _ := os.Getwd()
	res := analyzer.Run(inputs, analyzer.Options{Rules: selected, Jobs: o.jobs, Root: root})
	internal := false
	for _, p := range res.Problems {
		fmt.Fprintf(stderr, "sglint: %s\n", p)
		failed = failed || !p.Warning
		internal = internal || p.Internal
	}
	if internal {
		fmt.Fprintln(stderr, "sglint: an internal error is a bug in sglint: please report it with the message above; the other files were checked")
	}
	report := &output.Report{
		Tool:        tool(),
		Diagnostics: res.Diagnostics,
		Problems:    append(problems, res.Problems...),
		Rules:       selected,
		Files:       res.Files,
		SrcRoot:     cwd,
	}
	if err := format(stdout, report); err != nil {
		fmt.Fprintf(stderr, "sglint: writing %s output: %v\n", o.format, err)
		return ExitError
	}
	switch {
	case failed:
		return ExitError
	case len(res.Diagnostics) > 0 && !o.exitZero:
		return ExitFindings
	}
	return ExitClean
}

// registry lists the rules; tests swap it to inject failures.
var registry = rules.All

// suggestRule is ` (did you mean X?)` for a mistyped rule ID or name.
func suggestRule(word string, all []*analyzer.Rule) string {
	var names []string
	for _, r := range all {
		names = append(names, r.ID, r.Name)
	}
	if s, ok := didyoumean.Closest(word, names); ok {
		return fmt.Sprintf(" (did you mean %s?)", s)
	}
	return ""
}

func usageError(stdout, stderr io.Writer, err error) int {
	if errors.Is(err, errHelp) {
		fmt.Fprint(stdout, usage)
		return ExitClean
	}
	fmt.Fprintf(stderr, "sglint: %v\nRun 'sglint --help' for usage.\n", err)
	return ExitError
}
