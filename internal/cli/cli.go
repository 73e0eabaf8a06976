// Package cli parses sglint's command line and wires discovery, the engine
// and the output formats together. cmd/sglint only calls Main.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/analyzer/output"
	"github.com/sglint/sglint/internal/didyoumean"
	"github.com/sglint/sglint/rules"
	"github.com/sglint/sglint/rules/unusednoqa"
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
		case "records":
			return listRecords(args[1:], stdin, stdout, stderr)
		case "version":
			return printVersion(args[1:], stdout, stderr)
		case "server":
			return server(args[1:], stdin, stdout, stderr)
		case "help":
			fmt.Fprint(stdout, usage)
			return ExitClean
		}
	}
	return check(args, stdin, stdout, stderr)
}

// checkOptions are the flags of a check run.
type checkOptions struct {
	format           string
	selected         listFlag
	extendSelected   listFlag
	ignored          listFlag
	excludes         listFlag
	exitZero         bool
	jobs             int
	version          bool
	configFile       string
	respectGitignore boolFlag
	baseline         string
	writeBaseline    string
	statistics       bool
	stdinFilename    string
	addNoqa          bool
	stats            bool
	noCache          bool
	records          pathFlag
}

func check(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	rt := &runTimes{start: time.Now()}
	tuneGC()
	var o checkOptions
	fl := newFlagSet()
	fl.StringVar(&o.format, "format", "text", "")
	fl.Var(&o.selected, "select", "")
	fl.Var(&o.extendSelected, "extend-select", "")
	fl.Var(&o.ignored, "ignore", "")
	fl.Var(&o.excludes, "exclude", "")
	fl.BoolVar(&o.exitZero, "exit-zero", false, "")
	fl.IntVar(&o.jobs, "jobs", 0, "")
	fl.IntVar(&o.jobs, "j", 0, "")
	fl.BoolVar(&o.version, "version", false, "")
	fl.StringVar(&o.configFile, "config", "", "")
	fl.Var(&o.respectGitignore, "respect-gitignore", "")
	fl.StringVar(&o.baseline, "baseline", "", "")
	fl.StringVar(&o.writeBaseline, "write-baseline", "", "")
	fl.BoolVar(&o.statistics, "statistics", false, "")
	fl.StringVar(&o.stdinFilename, "stdin-filename", "", "")
	fl.BoolVar(&o.addNoqa, "add-noqa", false, "")
	fl.BoolVar(&o.stats, "stats", false, "")
	fl.BoolVar(&o.noCache, "no-cache", false, "")
	fl.Var(&o.records, "records", "")
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
	if err := o.validate(paths); err != nil {
		return usageError(stdout, stderr, err)
	}
	if o.jobs == 0 {
		o.jobs = runtime.NumCPU()
	}
	if o.stdinFilename != "" {
		paths = []string{"-"}
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	all := registry()
	cfg, ok := loadConfig(&o, paths, all, stderr)
	if !ok {
		return ExitError
	}
	selected, err := analyzer.SelectLayers(all, cfg.Selection,
		analyzer.Selection{Select: o.selected, ExtendSelect: o.extendSelected, Ignore: o.ignored})
	if err != nil {
		var unknown *analyzer.UnknownSelectorError
		if errors.As(err, &unknown) {
			err = fmt.Errorf("%w%s", err, suggestRule(unknown.Selector, all))
		}
		return usageError(stdout, stderr, err)
	}
	if len(selected) == 0 {
		// Not an error (ignoring everything is a choice), but seldom meant:
		// `--select SGL1` names only SGL100, which is off unless named whole.
		fmt.Fprintln(stderr, "sglint: warning: no rule is selected, so nothing is checked (an off-by-default rule is selected only by its full ID or name)")
	}

	// Something asked for and not checked, or a bug: exit 2, after checking
	// and reporting everything else. Warnings (a binary file, a dangling
	// link met in a walk) do not fail the run.
	failed := false
	rt.setup = time.Since(rt.start)
	t0 := time.Now()
	dopts := discoverOptions(cfg, &o)
	if err := discover.CheckExcludes(dopts.Exclude); err != nil { // a usage error: nothing is checked
		fmt.Fprintf(stderr, "sglint: %v\n", err)
		return ExitError
	}
	set := findInputs(paths, dopts, stdin, o.stdinFilename)
	rt.discover = time.Since(t0)
	for _, p := range set.problems {
		fmt.Fprintf(stderr, "sglint: %s\n", p)
		failed = failed || !p.Warning
	}
	if len(set.reported) == 0 && len(set.problems) == 0 {
		fmt.Fprintf(stderr, "sglint: warning: no Python files found under %s\n", strings.Join(paths, ", "))
	}
	recs, ok := loadRecords(recordPaths(cfg, o.records), stderr)
	if !ok {
		return ExitError
	}
	cwd, _ := os.Getwd()
	res := analyzer.Run(set.inputs, analyzer.Options{Rules: selected, Jobs: o.jobs, Root: set.root,
		RuleOptions: cfg.RuleOptions, SectionOptions: cfg.SectionOptions, Records: recs, Cache: openCache(o.noCache, set.root, stderr)})
	t0 = time.Now()
	if o.stats {
		defer func() {
			rt.output = time.Since(t0)
			writeStats(stderr, res.Stats, rt)
		}()
	}
	internal := false
	var problems []analyzer.Problem
	for _, p := range res.Problems {
		if set.context[p.Path] && !p.Internal {
			continue // a context file nobody asked about
		}
		problems = append(problems, p)
		fmt.Fprintf(stderr, "sglint: %s\n", p)
		failed = failed || !p.Warning
		internal = internal || p.Internal
	}
	if internal {
		fmt.Fprintln(stderr, "sglint: an internal error is a bug in sglint: please report it with the message above; the other files were checked")
	}
	diags := res.Diagnostics
	if slices.Contains(selected, unusednoqa.Rule) {
		diags = append(diags, unusednoqa.Check(res.Noqa, selected, all)...)
		analyzer.SortDiagnostics(diags)
	}
	diags = reportedOnly(diags, set, cfg)

	switch {
	case o.addNoqa:
		return addNoqa(diags, set, stderr, failed)
	case o.writeBaseline != "":
		return writeBaseline(o.writeBaseline, diags, stderr, failed)
	case o.baseline != "":
		kept, ok := applyBaseline(o.baseline, diags, set, selected, stderr)
		if !ok {
			return ExitError
		}
		diags = kept
	}

	report := &output.Report{
		Tool:        tool(),
		Diagnostics: diags,
		Problems:    append(set.problems, problems...),
		Rules:       selected,
		Files:       res.Files,
		SrcRoot:     cwd,
		CodeFlow:    chainOf,
	}
	if o.statistics {
		err = writeStatistics(stdout, o.format, diags)
	} else {
		err = format(stdout, report)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sglint: writing %s output: %v\n", o.format, err)
		return ExitError
	}
	switch {
	case failed:
		return ExitError
	case len(diags) > 0 && !o.exitZero:
		return ExitFindings
	}
	return ExitClean
}

// tuneGC halves the garbage collector's headroom (GOGC=50 instead of 100)
// unless GOGC is set. Most of a run's heap is pointer-free (sources, packed
// trees, node arrays), so a collection costs little, and the smaller
// headroom takes about 10 MB off the peak memory of a large tree.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
}

// validate checks flag combinations before any work is done.
func (o *checkOptions) validate(paths []string) error {
	switch {
	case o.jobs < 0:
		return fmt.Errorf("--jobs must be at least 1 (0 means the number of CPUs), got %d", o.jobs)
	case o.stdinFilename != "" && (len(paths) > 1 || len(paths) == 1 && paths[0] != "-"):
		return errors.New("--stdin-filename reads the source from standard input: give no PATH (or -)")
	case o.addNoqa && (o.stdinFilename != "" || slices.Contains(paths, "-")):
		return errors.New("--add-noqa writes to the checked files: it cannot read standard input")
	case o.addNoqa && (o.baseline != "" || o.writeBaseline != "" || o.statistics):
		return errors.New("--add-noqa cannot be combined with --baseline, --write-baseline or --statistics")
	case o.baseline != "" && o.writeBaseline != "":
		return errors.New("--baseline and --write-baseline cannot be combined: --write-baseline records every current finding")
	case o.statistics && o.format != "text" && o.format != "json":
		return fmt.Errorf("--statistics prints text or json, not %s", o.format)
	}
	return nil
}

// reportedOnly keeps the findings in files the run reports on (a rule may
// report in a context file) and drops those per-file-ignores disable.
func reportedOnly(ds []analyzer.Diagnostic, set *inputSet, cfg *config.Config) []analyzer.Diagnostic {
	out := make([]analyzer.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if set.reported[d.Path] && !cfg.PerFileIgnored(d.Path, d.Rule.ID) {
			out = append(out, d)
		}
	}
	return out
}

// chainOf is the SARIF code flow of a finding whose rule's related
// locations walk a call chain.
func chainOf(d *analyzer.Diagnostic) []analyzer.Related {
	if d.Rule.RelatedIsChain {
		return d.Related
	}
	return nil
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
