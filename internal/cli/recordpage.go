package cli

import (
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/rules/recordraise"
)

// recordPage is what `sglint explain <record id>` prints: what sglint
// knows of the record (the shipped summary, or the loaded file with its
// prose), the rules derived from it and what each takes from it, and the
// record's raise sites and derived findings in the tree at paths.
func recordPage(r *records.Record, paths []string, configFile string, stderr io.Writer) (string, int) {
	var b strings.Builder
	b.WriteString(recordDoc(r))
	b.WriteString(derivation(r))
	b.WriteString(guardsSection(r))
	tree, code := recordInTree(r, paths, configFile, stderr)
	b.WriteString(tree)
	return b.String(), code
}

// derivation lists the rules written from the record, each with the
// fields it takes and what it makes of them.
func derivation(r *records.Record) string {
	rs := derivedRules(r.ID)
	var b strings.Builder
	b.WriteString("\n## Rules derived from it\n\n")
	if len(rs) == 0 {
		b.WriteString("None of sglint's rules is written from it.\n")
	}
	for _, rule := range rs {
		fmt.Fprintf(&b, "- %s %s", rule.ID, rule.Name)
		if len(rule.RecordFields) > 0 {
			fmt.Fprintf(&b, ", from its %s", joinAnd(rule.RecordFields))
		}
		b.WriteString(".")
		if rule.RecordUse != "" {
			b.WriteString(" " + rule.RecordUse)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\n%s (%s) also reports the KV entries that can fail with it, and the other uses of the state "+
		"its checks name, when the record is loaded with --records.\n", recordraise.Rule.ID, recordraise.Rule.Name)
	return b.String()
}

// recordInTree runs the rules derived from r over the files at paths,
// with r's raise sites found, and describes both.
func recordInTree(r *records.Record, paths []string, configFile string, stderr io.Writer) (string, int) {
	var b strings.Builder
	shown := strings.Join(paths, " ")
	fmt.Fprintf(&b, "\n## In %s\n\n", shown)
	resolver, err := config.NewResolver(configFile, registry())
	if err != nil {
		printErrors[config.Errors](stderr, err)
		return "", ExitError
	}
	found := findInputs(paths, projectRoot(paths, ""), discoverOptions(resolver, &checkOptions{configFile: configFile}), nil, "")
	failed := false
	for _, p := range found.problems {
		fmt.Fprintf(stderr, "sglint: %s\n", p)
		failed = failed || !p.Warning
	}
	reported := 0
	for _, in := range found.inputs {
		if in.Report {
			reported++
		}
	}
	if reported == 0 {
		fmt.Fprintf(&b, "No Python file here. Run `sglint explain %s PATH` on a checkout (its python/ directory) "+
			"to see the record's raise sites and the findings derived from it.\n", r.ID)
		return b.String(), exitOf(failed)
	}
	cfg := resolver.ForDir(".")
	if err := resolver.Err(cfg); err != nil {
		printErrors[config.Errors](stderr, err)
		return "", ExitError
	}
	rules := derivedRules(r.ID)
	if !r.Builtin {
		// A loaded record: SGL010 checks it, at its raise sites and the
		// other uses of the state its checks name.
		rules = append(rules, recordraise.Rule)
	}
	recs := []*records.Record{r}
	near := r.Near()
	if near != nil {
		recs = append(recs, near) // statements close to r, for when none matches
	}
	res := checker.Run(found.inputs, checker.Options{Rules: rules, Jobs: runtime.NumCPU(), Root: found.root,
		RuleOptions: cfg.RuleOptions, SectionOptions: cfg.SectionOptions, Records: records.NewSet(recs),
		Full: true}) // every file: a raise site can be anywhere
	failed = printRunProblems(stderr, found, res.Problems) || failed
	var rows, close []siteRow
	for _, s := range res.RaiseSites {
		switch {
		case !s.File.Report:
		case s.Record == r:
			rows = append(rows, newSiteRow(s))
		case s.Record == near:
			close = append(close, newSiteRow(s))
		}
	}
	sortSites(rows)
	fmt.Fprintf(&b, "Raise sites (`raise %s(...)` or `assert` whose message can match): %d in %s.\n",
		r.ClassName(), len(rows), plural(res.Files, "file"))
	for _, s := range rows {
		fmt.Fprintf(&b, "- %s:%d:%d in `%s`: %s", s.Path, s.Line, s.Column, orDash(s.Function), s.Message)
		if s.Condition != "" {
			fmt.Fprintf(&b, " (when `%s`)", s.Condition)
		}
		b.WriteString("\n")
	}
	if len(rows) == 0 {
		b.WriteString("None: this code does not raise it (it predates the record, or the raise moved or its " +
			"message changed since).\n")
		if c, ok := closest(r, close); ok {
			fmt.Fprintf(&b, "The closest statement is %s:%d:%d in `%s`: `%s(%q)`, whose message differs from the "+
				"record's `%s`.\n", c.Path, c.Line, c.Column, orDash(c.Function), r.ClassName(), c.Message, r.ErrorMessage)
		}
	}
	var ds []analyzer.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Record == r.ID && !found.context[d.Path] {
			ds = append(ds, d)
		}
	}
	analyzer.SortDiagnostics(ds)
	fmt.Fprintf(&b, "\nFindings derived from it: %d.\n", len(ds))
	for _, d := range ds {
		fmt.Fprintf(&b, "- %s:%d:%d %s %s\n", d.Path, d.Start.Line, d.Start.Column, d.Rule.ID, firstClause(d.Message))
	}
	if len(ds) > 0 {
		ids := make([]string, len(rules))
		for i, rule := range rules {
			ids[i] = rule.ID
		}
		sort.Strings(ids)
		load := ""
		if !r.Builtin {
			load = "--records " + r.Source.File + " "
		}
		fmt.Fprintf(&b, "\nThe full messages: `sglint %s--select %s %s`.\n", load, strings.Join(ids, ","), shown)
	}
	return b.String(), exitOf(failed)
}

func exitOf(failed bool) int {
	if failed {
		return ExitError
	}
	return ExitClean
}

// firstClause is a finding's message up to its first colon or semicolon
// outside backquotes and parentheses, or its first 100 characters.
func firstClause(msg string) string {
	inCode, depth := false, 0
	for i, c := range msg {
		switch {
		case c == '`':
			inCode = !inCode
		case inCode:
		case c == '(':
			depth++
		case c == ')':
			depth = max(depth-1, 0)
		case depth == 0 && (c == ':' || c == ';'):
			return msg[:i]
		}
	}
	if r := []rune(msg); len(r) > 100 {
		return string(r[:99]) + "…"
	}
	return msg
}

// closest is the statement of rows (same class, sharing the record's
// longest word) whose message shares most of the record's words, when it
// shares at least half of them.
func closest(r *records.Record, rows []siteRow) (siteRow, bool) {
	sortSites(rows)
	best, score := -1, 0.0
	for i, row := range rows {
		if l := r.Likeness(row.Message); l >= 0.5 && l > score { // the first of equals, in site order
			best, score = i, l
		}
	}
	if best < 0 {
		return siteRow{}, false
	}
	return rows[best], true
}

// guardsSection says how sglint reads the record's guard fields, parsed
// as Python: the checks they make, and whether a handler confines the
// error. Empty when the record has none (a shipped summary).
func guardsSection(r *records.Record) string {
	gs := r.Guards()
	if len(gs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## How sglint reads its guards\n\n")
	for _, g := range gs {
		fmt.Fprintf(&b, "- %s: ", g.Field)
		switch {
		case !g.Python:
			b.WriteString("prose, not Python: sglint does not read it as code.\n")
		case g.Field == "tryCatchPattern" && g.Reraises:
			fmt.Fprintf(&b, "a handler of `%s` that raises again: it does not confine the error, and sglint does not take such a handler as one that does.\n", orDash(g.Catches))
		case g.Field == "tryCatchPattern":
			fmt.Fprintf(&b, "a handler of `%s` that does not raise again. Inside a request loop, or around the call in an entry, sglint takes a handler of this shape as confining the error to one request (SGL004, SGL005, SGL006 and SGL010 accept it).\n", orDash(g.Catches))
		case len(g.Checks) == 0:
			b.WriteString("Python, with no check sglint can state (it reads `None`, emptiness and membership tests).\n")
		case g.Field == "typeGuard":
			fmt.Fprintf(&b, "a predicate, true when %s. A project function that returns such a test counts as the check wherever it is called (`if not pred(self): return` makes it hold after), in every rule.\n", joinAnd(g.Checks))
		default:
			fmt.Fprintf(&b, "checks that %s. These are the checks the rules derived from the record ask for before the state's uses on KV paths.\n", joinAnd(g.Checks))
		}
	}
	if req := r.Required(); len(req) > 0 {
		var names []string
		for _, q := range req {
			want := "non-empty"
			if q.Kind == facts.NotNone {
				want = "not None"
			}
			names = append(names, fmt.Sprintf("`%s` %s", q.State, want))
		}
		fmt.Fprintf(&b, "\nLoaded with --records, SGL010 also reports the other uses of the state these checks name (%s) on KV paths that fail without the check.\n", joinAnd(names))
	}
	return b.String()
}
