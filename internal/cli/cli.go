// Package cli parses sglint's command line and wires discovery, the engine
// and the output formats together. cmd/sglint only calls Main.
package cli

import (
	"bytes"
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
	"github.com/sglint/sglint/internal/hugeheap"
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
	args = leadingFlags(args)
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
		case "completion":
			return completion(args[1:], stdout, stderr)
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
	fix              bool
	stats            bool
	noCache          bool
	cacheDir         string
	allFiles         bool
	records          pathFlag
	color            string
	quiet            bool
	outputFile       string
	showFiles        bool
	showSettings     bool
}

func check(args []string, stdin io.Reader, stdout, stderr io.Writer) (exit int) {
	rt := &runTimes{start: time.Now()}
	tuneGC()
	var o checkOptions
	fl := newFlagSet()
	fl.StringVar(&o.format, "format", "", "")
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
	fl.BoolVar(&o.fix, "fix", false, "")
	fl.BoolVar(&o.stats, "stats", false, "")
	fl.BoolVar(&o.noCache, "no-cache", false, "")
	fl.StringVar(&o.cacheDir, "cache-dir", "", "")
	fl.BoolVar(&o.allFiles, "all-files", false, "")
	fl.Var(&o.records, "records", "")
	fl.StringVar(&o.color, "color", "auto", "")
	fl.BoolVar(&o.quiet, "quiet", false, "")
	fl.BoolVar(&o.quiet, "q", false, "")
	fl.StringVar(&o.outputFile, "output-file", "", "")
	fl.BoolVar(&o.showFiles, "show-files", false, "")
	fl.BoolVar(&o.showSettings, "show-settings", false, "")
	paths, err := parseInterspersed(fl, args)
	if err != nil {
		return usageError(stdout, stderr, err)
	}
	if o.outputFile != "" {
		f, err := outputFile(o.outputFile)
		if err != nil {
			return usageError(stdout, stderr, err)
		}
		defer f.Close()
		stdout = f
	}
	color, err := colorOn(o.color, stdout)
	if err != nil {
		return usageError(stdout, stderr, err)
	}
	if !o.allFiles {
		limitDemandHeap()
	}
	if o.version {
		return printVersion(nil, stdout, stderr)
	}
	if o.format == "" {
		o.format = defaultFormat(stdout)
	}
	format, err := output.Lookup(o.format)
	if err != nil {
		return usageError(stdout, stderr, fmt.Errorf("--format: %w", err))
	}
	if err := o.validate(paths); err != nil {
		return usageError(stdout, stderr, err)
	}
	// A run that fixes something is done again on the edited files (see
	// below); what this pass says (warnings, --stats) is held until it is
	// known whether it is the run's last word, so that nothing is said twice.
	saidTo, held, again := stderr, &bytes.Buffer{}, false
	if o.fix {
		// The fixable findings are SGL100's: --fix looks for them.
		o.extendSelected = append(o.extendSelected, unusednoqa.Rule.ID)
		stderr = held
		defer func() {
			if !again {
				saidTo.Write(held.Bytes())
			}
		}()
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
	cli := analyzer.Selection{Select: o.selected, ExtendSelect: o.extendSelected, Ignore: o.ignored}
	if _, err := analyzer.SelectLayers(all, analyzer.Selection{}, cli); err != nil {
		var unknown *analyzer.UnknownSelectorError
		if errors.As(err, &unknown) {
			err = fmt.Errorf("%w%s", err, suggestRule(unknown.Selector, all))
		}
		return usageError(stdout, stderr, err)
	}
	if err := discover.CheckExcludes(o.excludes); err != nil { // a usage error: nothing is checked
		fmt.Fprintf(stderr, "sglint: %v\n", err)
		return ExitError
	}
	if o.showSettings {
		resolver, err := config.NewResolver(o.configFile, all)
		if err == nil {
			err = showSettings(stdout, paths, resolver, all, cli)
		}
		if err != nil {
			fmt.Fprintf(stderr, "sglint: %v\n", err)
			return ExitError
		}
		return ExitClean
	}
	root := projectRoot(paths, o.stdinFilename)
	// Nothing this command depended on changed since it last ran: its
	// output again, without running (see internal/replay).
	var cacheDir string // found once: the default is a climb to the checkout's top
	if !o.noCache {
		cacheDir = cacheDirOf(o.cacheDir, root)
	}
	rp := newReplayer(args, paths, &o, stdout, stderr, rt.start)
	if rp != nil {
		if code, ok := rp.replay(peekCache(cacheDir), stdout, stderr); ok {
			return code
		}
	}
	// Not replayed: the run builds its heap now, on huge pages where the
	// kernel gives them (a replayed one stays too small to gain).
	hugeheap.Reserve()
	store := openCache(o.noCache, cacheDir, stderr)
	if store != nil {
		defer store.Wait() // the writes left in the background, last
	}
	if rp != nil && store != nil {
		rp.store = store
		stdout, stderr = rp.capture(stdout, stderr)
		defer func() { rp.save(exit) }()
	} else {
		rp = nil
	}
	resolver, err := config.NewResolver(o.configFile, all)
	if err != nil {
		printErrors[config.Errors](stderr, err)
		return ExitError
	}

	// Something asked for and not checked, or a bug: exit 2, after checking
	// and reporting everything else. Warnings (a binary file, a dangling
	// link met in a walk) do not fail the run.
	failed := false
	rt.setup = time.Since(rt.start)
	t0 := time.Now()
	dopts := discoverOptions(resolver, &o)
	set := rp.rescanned(store, resolver) // only input files changed: no walk
	if set == nil {
		dopts.Listings = loadListings(store)
		set = findInputs(paths, root, dopts, stdin, o.stdinFilename)
		saveListings(store, dopts.Listings)
	}
	rt.discover = time.Since(t0)
	if set.unnamedStdin {
		fmt.Fprintln(stderr, stdinHint)
	}
	if o.showFiles {
		for _, p := range set.problems {
			fmt.Fprintf(stderr, "sglint: %s\n", p)
		}
		showFiles(stdout, set)
		return ExitClean
	}
	gs, err := groupInputs(set, resolver, all, cli, &o)
	if err != nil {
		return usageError(stdout, stderr, err)
	}
	if len(gs.errs) > 0 {
		// The configuration of a file to check is broken: nothing is
		// checked. (One met only by the walk for context files costs just
		// its files' settings: they are not reported on.)
		for _, e := range gs.errs {
			printErrors[config.Errors](stderr, e)
		}
		return ExitError
	}
	if rp != nil { // a run that stops above is not recorded
		rp.listings, rp.set, rp.groups = dopts.Listings, set, gs
		rp.problems = len(set.problems) > 0
		rp.prepare()
	}
	for _, p := range set.problems {
		fmt.Fprintf(stderr, "sglint: %s\n", p)
		failed = failed || !p.Warning
	}
	if len(set.reported) == 0 && len(set.problems) == 0 {
		fmt.Fprintf(stderr, "sglint: warning: no Python files found under %s\n", strings.Join(paths, ", "))
	}
	if noRules(gs.groups, resolver, all, cli) {
		// Not an error (ignoring everything is a choice), but seldom meant:
		// `--select SGL1` names only SGL100, which is off unless named whole.
		fmt.Fprintln(stderr, "sglint: warning: no rule is selected, so nothing is checked (an off-by-default rule is selected only by its full ID or name)")
	}
	if !loadGroupRecords(gs.groups, stderr) {
		return ExitError
	}
	cwd, _ := os.Getwd()
	res := runGroups(set, gs, &o, store, all, stderr)
	failed = failed || len(res.notRun) > 0
	t0 = time.Now()
	if o.stats {
		defer func() {
			rt.output = time.Since(t0)
			writeStats(stderr, res.stats, rt)
		}()
	}
	if rp != nil && len(res.problems) > 0 {
		rp.problems = true
	}
	internal := false
	for _, p := range res.problems {
		fmt.Fprintf(stderr, "sglint: %s\n", p)
		failed = failed || !p.Warning
		internal = internal || p.Internal
	}
	if internal {
		fmt.Fprintln(stderr, "sglint: an internal error is a bug in sglint: please report it with the message above; the other files were checked")
	}
	for _, w := range res.noqa {
		fmt.Fprintf(stderr, "sglint: %s\n", w)
	}
	diags := res.diags
	if o.fix {
		var fixLog bytes.Buffer
		left, ok := applyFixes(diags, set, &fixLog)
		if ok && len(left) < len(diags) {
			// The files changed (a line may have gone): what is left is
			// reported as a run on them finds it, with its positions, SGL100
			// still on. That run says everything again but the fixes.
			again = true
			saidTo.Write(fixLog.Bytes())
			rerun := slices.Clone(args)
			for i, a := range rerun {
				if a == "--fix" || a == "-fix" || strings.HasPrefix(a, "--fix=") || strings.HasPrefix(a, "-fix=") {
					rerun[i] = "--extend-select=" + unusednoqa.Rule.ID
				}
			}
			return check(rerun, stdin, stdout, saidTo)
		}
		held.Write(fixLog.Bytes())
		if !ok {
			return ExitError
		}
	}
	var covered []analyzer.Diagnostic
	switch {
	case o.addNoqa:
		return addNoqa(diags, set, stderr, failed)
	case o.writeBaseline != "":
		return writeBaseline(o.writeBaseline, diags, stderr, failed)
	case o.baseline != "":
		kept, cov, ok := applyBaseline(o.baseline, res.byGroup, gs.groups, stderr)
		if !ok {
			return ExitError
		}
		diags, covered = kept, cov
	}

	report := &output.Report{
		Tool:           tool(),
		Diagnostics:    diags,
		Problems:       append(set.problems, res.problems...),
		Rules:          ranRules(gs.groups, all),
		Files:          res.files,
		OnlyRead:       res.onlyRead,
		NotRun:         res.notRun,
		BaselineHidden: len(covered),
		Baselined:      covered,
		BaselineFile:   o.baseline,
		SrcRoot:        cwd,
		CodeFlow:       chainOf,
		Color:          color && (o.format == "full" || o.format == "concise" || o.format == "text"),
		Quiet:          o.quiet,
	}
	if o.statistics {
		err = writeStatistics(stdout, o.format, report)
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

// noRules reports whether no rule runs: every group selects none, or,
// without files, the configuration of the working directory does.
func noRules(gs []*group, res *config.Resolver, all []*analyzer.Rule, cli analyzer.Selection) bool {
	if len(gs) == 0 {
		rules, err := analyzer.SelectLayers(all, res.ForDir(".").Selection, cli)
		return err == nil && len(rules) == 0
	}
	for _, g := range gs {
		if len(g.rules) > 0 {
			return false
		}
	}
	return true
}

// tuneGC gives the garbage collector four times the live heap as headroom
// (GOGC=400), under a soft limit of 256 MiB, unless GOGC or GOMEMLIMIT is
// set. A run is short and mostly allocates what it keeps: on an sglang tree
// the collector ran many times for nothing (about a sixth of an edit run's
// CPU in profiles), and the demand-driven runs peak at 30 to 75 MiB. The
// limit makes the collector work harder only on a run that would grow past
// it (every file of a large tree with --all-files); a lower one (128 MiB)
// made such runs collect without end once their live heap neared it (the
// stdlib corpus twice over took 2.3 times the corpus once).
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(256 << 20)
	}
}

// limitDemandHeap lowers the soft memory limit of a demand-driven run to
// 112 MiB (unless GOMEMLIMIT is set). Such a run keeps every input's bytes
// while it chooses what to load (44.5 MB on a 3,124-file tree), and under
// the 256 MiB limit the garbage of its analyses piled up on top: that
// tree peaked at 122-124 MiB, 102-104 MiB with this limit, in the same
// time. Its live heap stays well below the limit on every tree measured
// (the collector would otherwise run more, not fail); --all-files keeps
// the higher limit, whose runs hold every tree.
func limitDemandHeap() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(112 << 20)
	}
}

// defaultFormat is the full form on a terminal, where a person reads the
// findings, and the concise one line a finding elsewhere (pipes, files,
// CI logs, editors), as ruff does.
func defaultFormat(stdout io.Writer) string {
	if isTerminal(stdout) {
		return "full"
	}
	return "concise"
}

// isTerminal reports whether w is a character device. The standard library
// tells no more without a dependency; the other character devices
// (/dev/null) take the full form harmlessly.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
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
	case o.fix && (o.stdinFilename != "" || slices.Contains(paths, "-")):
		return errors.New("--fix writes to the checked files: it cannot read standard input")
	case o.fix && (o.addNoqa || o.writeBaseline != ""):
		return errors.New("--fix cannot be combined with --add-noqa or --write-baseline")
	case o.baseline != "" && o.writeBaseline != "":
		return errors.New("--baseline and --write-baseline cannot be combined: --write-baseline records every current finding")
	case o.statistics && !slices.Contains([]string{"full", "concise", "text", "json"}, o.format):
		return fmt.Errorf("--statistics prints text or json, not %s", o.format)
	}
	return nil
}

// namedSkipFails makes a file skipped on purpose (binary, too large) an
// error when it was named on the command line: it was asked for and not
// checked. Met in a walk, it stays a warning.
func namedSkipFails(p analyzer.Problem, set *inputSet) analyzer.Problem {
	if p.Warning && set.explicit[p.Path] {
		p.Warning = false
		p.Message = "cannot be checked: " + strings.TrimSuffix(p.Message, ", skipped")
	}
	return p
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

// leadingFlags moves the flags that explain and records share with a
// check (--records, --config) after the subcommand when they come first:
// `sglint --records DIR explain ID` is `sglint explain --records DIR ID`.
// Other leading flags leave args as they are (a check of a path named
// like a subcommand is `sglint check PATH`).
func leadingFlags(args []string) []string {
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "--records" || a == "-records" || a == "--config" || a == "-config":
			i += 2
		case strings.HasPrefix(a, "--records=") || strings.HasPrefix(a, "--config=") ||
			strings.HasPrefix(a, "-records=") || strings.HasPrefix(a, "-config="):
			i++
		default:
			if i > 0 && (a == "explain" || a == "records") {
				return slices.Concat([]string{a}, args[:i], args[i+1:])
			}
			return args
		}
	}
	return args
}
