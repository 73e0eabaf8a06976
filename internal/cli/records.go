package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/internal/didyoumean"
	"github.com/sglint/sglint/internal/relpath"
)

// pathFlag is a repeatable flag whose values are paths, kept whole (a path
// may hold a comma).
type pathFlag []string

func (p *pathFlag) String() string { return strings.Join(*p, ",") }

func (p *pathFlag) Set(v string) error {
	if v == "" {
		return errors.New("empty path")
	}
	*p = append(*p, v)
	return nil
}

// recordPaths are the config's records (relative to its directory, shown
// relative to the working directory when inside it), then --records.
func recordPaths(cfg *config.Config, flags []string) []string {
	var out []string
	for _, p := range cfg.Records {
		out = append(out, displayAbs(p))
	}
	return append(out, flags...)
}

// displayAbs shows an absolute path relative to the working directory when
// it lies inside it.
func displayAbs(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	rel, ok := relpath.Inside(wd, p)
	if !ok {
		return p
	}
	return rel
}

// loadRecords loads the records of a run; nil without any. Every problem
// is printed; false means the run must stop (exit 2).
func loadRecords(paths []string, stderr io.Writer) (*records.Set, bool) {
	if len(paths) == 0 {
		return nil, true
	}
	set, err := records.Load(paths...)
	if err != nil {
		printErrors[records.Errors](stderr, err)
		return nil, false
	}
	return set, true
}

// recordsOptions are the flags of `sglint records`.
type recordsOptions struct {
	records          pathFlag
	configFile       string
	excludes         listFlag
	respectGitignore boolFlag
	jobs             int
	format           string
	sites            bool
}

// listRecords is `sglint records [flags] [PATH...]`: every loaded record
// with the number of raise sites it matches in the checked files. A
// record with none is worth seeing: its code moved or its pattern is
// stale.
func listRecords(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o recordsOptions
	fl := newFlagSet()
	fl.Var(&o.records, "records", "")
	fl.StringVar(&o.configFile, "config", "", "")
	fl.Var(&o.excludes, "exclude", "")
	fl.Var(&o.respectGitignore, "respect-gitignore", "")
	fl.IntVar(&o.jobs, "jobs", 0, "")
	fl.IntVar(&o.jobs, "j", 0, "")
	fl.StringVar(&o.format, "format", "text", "")
	fl.BoolVar(&o.sites, "sites", false, "")
	paths, err := parseInterspersed(fl, args)
	if err == nil && o.format != "text" && o.format != "json" {
		err = fmt.Errorf("--format: records prints text or json, not %s", o.format)
	}
	if err == nil && o.jobs < 0 {
		err = fmt.Errorf("--jobs must be at least 1 (0 means the number of CPUs), got %d", o.jobs)
	}
	if err != nil {
		return usageError(stdout, stderr, err)
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	if o.jobs == 0 {
		o.jobs = runtime.NumCPU()
	}
	co := &checkOptions{configFile: o.configFile, excludes: o.excludes, respectGitignore: o.respectGitignore}
	resolver, err := config.NewResolver(o.configFile, registry())
	if err != nil {
		printErrors[config.Errors](stderr, err)
		return ExitError
	}
	found := findInputs(paths, projectRoot(paths, ""), discoverOptions(resolver, co), stdin, "")
	// The records of every configuration the files are under, each once.
	var rpaths []string
	for _, in := range found.inputs {
		if in.Report {
			cfg := resolver.ForFile(in.Abs)
			if err := resolver.Err(cfg); err != nil {
				printErrors[config.Errors](stderr, err)
				return ExitError
			}
			for _, p := range recordPaths(cfg, nil) {
				if !slices.Contains(rpaths, p) {
					rpaths = append(rpaths, p)
				}
			}
		}
	}
	if len(found.inputs) == 0 {
		rpaths = recordPaths(resolver.ForDir("."), nil)
	}
	rpaths = append(rpaths, o.records...)
	loaded, ok := loadRecords(rpaths, stderr)
	if !ok {
		return ExitError
	}
	// The records sglint ships, unless a loaded file has a newer version.
	set := records.WithBuiltin(loaded)
	failed := false
	for _, p := range found.problems {
		fmt.Fprintf(stderr, "sglint: %s\n", p)
		failed = failed || !p.Warning
	}
	// Only the raise sites are wanted: no rules. Context files are loaded
	// as for a check but their sites are not counted.
	res := checker.Run(found.inputs, checker.Options{Jobs: o.jobs, Root: found.root, Records: set})
	failed = printRunProblems(stderr, found, res.Problems) || failed
	sites := map[*records.Record][]siteRow{}
	for _, s := range res.RaiseSites {
		if s.File.Report {
			sites[s.Record] = append(sites[s.Record], newSiteRow(s))
		}
	}
	for _, rows := range sites {
		sortSites(rows)
	}
	if o.format == "json" {
		err = writeRecordsJSON(stdout, set, sites)
	} else {
		err = writeRecordsText(stdout, set, sites, o.sites, res.Files)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sglint: %v\n", err)
		return ExitError
	}
	if failed {
		return ExitError
	}
	return ExitClean
}

// siteRow is a raise site as listed.
type siteRow struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	Function  string `json:"function"`
	Message   string `json:"message"`       // the template, holes as …
	Condition string `json:"condition"`     // the syntactic raising condition
	HintScore int    `json:"hint_score"`    // trailing path components shared with the record's filePath
	Snippet   int    `json:"snippet_score"` // lines of the record's sourceCode found around the site
	Why       string `json:"why"`           // why it matched, in words
}

func newSiteRow(s analyzer.RaiseSite) siteRow {
	t := s.File.Tree()
	pos := t.Start(s.Stmt)
	return siteRow{
		Path:      s.File.Path,
		Line:      pos.Line,
		Column:    pos.Column,
		Function:  syntax.QualName(t, s.Stmt),
		Message:   s.Template.String(),
		Condition: records.CondText(t, s.Conds),
		HintScore: s.Evidence.Path,
		Snippet:   s.Evidence.Snippet,
		Why:       siteWhy(s.Evidence),
	}
}

// siteWhy says what tied a site to its record.
func siteWhy(e records.Evidence) string {
	parts := []string{"its message can be the record's"}
	if e.Weak {
		parts[0] = "its message has too little literal text to count alone"
	}
	if e.Path > 0 {
		parts = append(parts, fmt.Sprintf("its path ends like the record's filePath (%s)", plural(e.Path, "component")))
	}
	if e.Snippet > 0 {
		parts = append(parts, fmt.Sprintf("%s of the record's sourceCode are around it", plural(e.Snippet, "line")))
	}
	return strings.Join(parts, "; ")
}

// sortSites puts the sites that agree best with the record's filePath and
// sourceCode first, then by path and position.
func sortSites(rows []siteRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.HintScore != b.HintScore {
			return a.HintScore > b.HintScore
		}
		if a.Snippet != b.Snippet {
			return a.Snippet > b.Snippet
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

func writeRecordsText(w io.Writer, set *records.Set, sites map[*records.Record][]siteRow, listSites bool, files int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSLUG\tCLASS\tSITES")
	stale, shipped := 0, 0
	for _, r := range set.Records {
		n := fmt.Sprint(len(sites[r]))
		switch {
		case r.Builtin:
			shipped++
			if len(sites[r]) == 0 {
				n += " (shipped with sglint; its raise site is not in these files)"
			}
		case len(sites[r]) == 0:
			stale++
			n += " (stale? no raise site matches: the code moved or the pattern is out of date)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, orDash(r.Slug), r.ErrorClass, n)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range set.Records {
		if r.PatternNote != "" {
			fmt.Fprintf(w, "note: record %s: messagePattern is %s\n", r.ID, r.PatternNote)
		}
	}
	if listSites {
		for _, r := range set.Records {
			for _, s := range sites[r] {
				fn := ""
				if s.Function != "" {
					fn = " in " + s.Function
				}
				cond := ""
				if s.Condition != "" {
					cond = " when " + s.Condition
				}
				fmt.Fprintf(w, "%s:%d:%d: %s %s(%q)%s%s\n    matched: %s\n", s.Path, s.Line, s.Column, r.ID, r.ErrorClass,
					s.Message, fn, cond, s.Why)
			}
		}
	}
	total := 0
	for _, rows := range sites {
		total += len(rows)
	}
	from := plural(len(set.Files), "file")
	switch {
	case shipped > 0 && len(set.Files) == 0:
		from = "sglint itself"
	case shipped > 0:
		from += fmt.Sprintf(" and %d shipped with sglint", shipped)
	}
	_, err := fmt.Fprintf(w, "%s from %s; %s in %s checked; %s matched none.\n",
		plural(set.Len(), "record"), from,
		plural(total, "raise site"), plural(files, "file"), plural(stale, "loaded record"))
	return err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

type recordJSON struct {
	ID             string    `json:"id"`
	Slug           string    `json:"slug"`
	ErrorClass     string    `json:"error_class"`
	MessagePattern string    `json:"message_pattern"`
	PatternNote    string    `json:"pattern_note,omitempty"`
	Source         string    `json:"source"`
	Sites          []siteRow `json:"sites"`
}

func writeRecordsJSON(w io.Writer, set *records.Set, sites map[*records.Record][]siteRow) error {
	out := make([]recordJSON, 0, set.Len())
	for _, r := range set.Records {
		rows := sites[r]
		if rows == nil {
			rows = []siteRow{}
		}
		out = append(out, recordJSON{ID: r.ID, Slug: r.Slug, ErrorClass: r.ErrorClass,
			MessagePattern: r.MessagePattern, PatternNote: r.PatternNote, Source: r.Source.String(), Sites: rows})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// recordDoc is the page `sglint explain <record id>` prints, made of the
// record file's own prose, read at run time.
func recordDoc(r *records.Record) string {
	var b strings.Builder
	title := r.Slug
	if title == "" {
		title = r.ID
	}
	fmt.Fprintf(&b, "# %s (record %s)\n\n", title, r.ID)
	msg := r.ErrorMessage
	if msg == "" {
		msg = r.MessagePattern
	}
	fmt.Fprintf(&b, "`%s`: %s\n\n", r.ErrorClass, msg)
	var facts []string
	if r.Severity != "" {
		facts = append(facts, "Severity: "+r.Severity+".")
	}
	if r.HandlingStrategy != "" {
		facts = append(facts, "Handling: "+r.HandlingStrategy+".")
	}
	facts = append(facts, "Message pattern: `"+r.MessagePattern+"`.")
	if r.FilePath != "" {
		at := r.FilePath
		if r.LineNumber > 0 {
			at += fmt.Sprintf(":%d", r.LineNumber)
		}
		if sha := r.AnalyzedSha; len(sha) >= 8 {
			at += " (commit " + sha[:8] + ")"
		}
		facts = append(facts, "Raised at "+at+" when recorded.")
	}
	if r.DatasetVersion != "" {
		facts = append(facts, "Data set version "+r.DatasetVersion+".")
	}
	if r.Builtin {
		facts = append(facts, "Shipped with sglint, which carries only this summary: the record's documentation, "+
			"scenarios and solutions are in its file (load it with --records PATH to read them here).")
	} else {
		facts = append(facts, "Read from "+r.Source.String()+".")
	}
	b.WriteString(strings.Join(facts, " "))
	b.WriteString("\n")
	section := func(h, body string) {
		if body = strings.TrimSpace(body); body != "" {
			fmt.Fprintf(&b, "\n## %s\n\n%s\n", h, body)
		}
	}
	bullets := func(items []string) string {
		var s strings.Builder
		for _, it := range items {
			if it = strings.TrimSpace(it); it != "" {
				s.WriteString("- " + it + "\n")
			}
		}
		return s.String()
	}
	section("Documentation", r.Documentation)
	section("Trigger scenarios", r.TriggerScenarios)
	section("Common situations", r.CommonSituations)
	section("Solutions", bullets(r.Solutions))
	section("Prevention tips", bullets(r.PreventionTips))
	return b.String()
}

// explainTarget resolves explain's argument: a rule, a shared section,
// else a record: one of the config's and --records' files, or one sglint
// ships. A record's page describes it in the tree at paths (default ".").
// The error carries a suggestion.
func explainTarget(key string, paths []string, configFile string, flagRecords []string, stderr io.Writer) (string, int) {
	if r := findRule(key); r != nil {
		return ruleDoc(r), ExitClean
	}
	if sec := findSection(key); sec != nil {
		return sectionDoc(sec), ExitClean
	}
	cfg, ok := workdirConfig(configFile, registry(), stderr)
	if !ok {
		return "", ExitError
	}
	rpaths := recordPaths(cfg, flagRecords)
	loaded, ok := loadRecords(rpaths, stderr)
	if !ok {
		return "", ExitError
	}
	set := records.WithBuiltin(loaded)
	if rec := set.Lookup(key); rec != nil {
		if len(paths) == 0 {
			paths = []string{"."}
		}
		return recordPage(rec, paths, configFile, stderr)
	}
	var names []string
	for _, r := range registry() {
		names = append(names, r.ID, r.Name)
	}
	for _, sec := range sections() {
		names = append(names, sec.Key)
	}
	if set != nil {
		for _, r := range set.Records {
			names = append(names, r.ID)
		}
	}
	hint := ""
	if s, ok := didyoumean.Closest(key, names); ok {
		hint = fmt.Sprintf(" (did you mean %s?)", s)
	}
	if len(rpaths) == 0 && hint == "" && looksLikeRecordID(key) {
		// A record id, and nothing to look it up in: say so, not "unknown
		// rule". (The records the rules derive from ship with sglint and are
		// found before this.)
		fmt.Fprintf(stderr, "sglint: no error records are loaded, so record %q cannot be explained\n", key)
		fmt.Fprintln(stderr, loadRecordsHint)
		return "", ExitError
	}
	what := "rule"
	if len(rpaths) > 0 {
		what = "rule or record"
	}
	fmt.Fprintf(stderr, "sglint: unknown %s %q%s\n", what, key, hint)
	if len(rpaths) == 0 {
		fmt.Fprintln(stderr, "Run 'sglint rules' for the list. No error records are loaded, so record ids and slugs are not known: "+
			"load them with --records PATH, or records = [\"records\"] under [tool.sglint].")
	} else {
		fmt.Fprintln(stderr, "Run 'sglint rules' or 'sglint records' for the lists.")
	}
	return "", ExitError
}

// loadRecordsHint says where records come from.
const loadRecordsHint = "Load them with --records PATH (a .json or .jsonl file, or a directory of them), " +
	"or name the project's records folder in its configuration: records = [\"records\"] under [tool.sglint] (docs/records.md)."

// derivedRules are the rules written for the record id (Rule.Record).
func derivedRules(id string) []*analyzer.Rule {
	var out []*analyzer.Rule
	for _, r := range registry() {
		if r.Record != "" && strings.EqualFold(r.Record, id) {
			out = append(out, r)
		}
	}
	return out
}

// printRunProblems prints the problems of a records run, leaving out those
// of context files (loaded only for what they define), and reports
// whether one is an error.
func printRunProblems(stderr io.Writer, found *inputSet, problems []analyzer.Problem) (failed bool) {
	for _, p := range problems {
		if found.context[p.Path] && !p.Internal {
			continue
		}
		fmt.Fprintf(stderr, "sglint: %s\n", p)
		failed = failed || !p.Warning
	}
	return failed
}

// looksLikeRecordID is the shape of the records' ids: 16 hexadecimal
// digits (8 or more are taken for one).
func looksLikeRecordID(s string) bool {
	if len(s) < 8 {
		return false
	}
	for _, c := range strings.ToLower(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
