// Package unusednoqa reports suppression comments that suppress nothing
// (SGL100). Whether a directive was used is known only after every rule
// has run on the file and suppressions were applied, so the rule's Run
// does nothing and the CLI calls Check on the run's result.
package unusednoqa

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/noqa"
)

//go:embed doc.md
var doc string

// Rule SGL100 unused-noqa.
var Rule = &analyzer.Rule{
	ID:         "SGL100",
	Name:       "unused-noqa",
	Severity:   analyzer.Warning,
	Title:      "Suppression comment that suppresses nothing",
	Doc:        doc,
	DefaultOff: true,
	Local:      true,
	// Run has nothing to do per file: see Check.
	Run: func(*analyzer.Pass) error { return nil },
}

// sglintCode is the shape of sglint's rule IDs; other codes belong to other
// linters.
var sglintCode = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^SGL[0-9]+$`) })

// Check returns SGL100 findings for the directives of sets (a run's
// Result.Noqa, usage recorded) given the rules that ran and all registered
// rules. Call it only when SGL100 is selected.
func Check(sets []*noqa.Set, ran, registered []*analyzer.Rule) []analyzer.Diagnostic {
	ranIDs, known := map[string]bool{}, map[string]bool{}
	for _, r := range ran {
		ranIDs[r.ID] = true
	}
	for _, r := range registered {
		known[r.ID] = true
	}
	var out []analyzer.Diagnostic
	for _, set := range sets {
		for _, d := range set.Directives {
			msg := message(d, ranIDs, known)
			if msg == "" || silenced(set, d) {
				continue
			}
			out = append(out, analyzer.Diagnostic{
				Rule: Rule, Path: set.Path, Start: d.Start, End: d.End,
				Message: msg, Record: Rule.Record, LineText: d.Text, Fix: fixOf(d, ranIDs, known),
			})
		}
	}
	return out
}

// silenced reports whether SGL100 is turned off for d: by a directive
// naming SGL100 explicitly, on d's line or file-wide (d itself included).
// A bare noqa does not count, or an unused bare `# sglint: noqa` would
// silence its own report.
func silenced(set *noqa.Set, d *noqa.Directive) bool {
	for _, o := range set.Directives {
		if !o.Invalid && slices.Contains(o.Codes, Rule.ID) && (o.FileLevel || o.Start.Line == d.Start.Line) {
			return true
		}
	}
	return false
}

// fixOf is the edit that removes what is unused in d: the whole
// directive when nothing of it is used, else the unused and unknown codes
// (other linters' codes, and codes of rules that did not run, stay).
func fixOf(d *noqa.Directive, ran, known map[string]bool) *analyzer.Fix {
	edit := analyzer.TextEdit{Start: d.Start, End: d.End}
	if d.Codes == nil {
		return &analyzer.Fix{Message: "remove the unused directive", Edits: []analyzer.TextEdit{edit}}
	}
	unused := d.UnusedCodes()
	var keep, drop []string
	for _, c := range d.Codes {
		if slices.Contains(unused, c) && reported(c, ran, known) {
			drop = append(drop, c)
		} else {
			keep = append(keep, c)
		}
	}
	if len(drop) == 0 {
		return nil
	}
	if len(keep) > 0 {
		lower := strings.ToLower(d.Text)
		i := strings.LastIndex(lower, "noqa")
		colon := strings.IndexByte(d.Text[max(i, 0):], ':')
		if i < 0 || colon < 0 {
			return nil
		}
		edit.New = d.Text[:i+colon+1] + " " + strings.Join(keep, ", ")
	}
	return &analyzer.Fix{Message: fmt.Sprintf("remove %s", strings.Join(drop, ", ")), Edits: []analyzer.TextEdit{edit}}
}

// reported: an unused code SGL100 reports (and --fix removes): an sglint
// code other than SGL100's own, of a rule that ran or of no rule at all.
// Other linters' codes, and those of rules that did not run, are left.
func reported(code string, ran, known map[string]bool) bool {
	return sglintCode().MatchString(code) && code != Rule.ID && (ran[code] || !known[code])
}

// message describes what is unused in d, or "" if nothing is.
func message(d *noqa.Directive, ran, known map[string]bool) string {
	if d.Invalid {
		return ""
	}
	if d.Codes == nil {
		if d.FileLevel && !d.Used() {
			return "unused `sglint: noqa` directive: it suppresses no finding in this file"
		}
		return "" // a bare line-level noqa may be another linter's
	}
	var unused, unknown []string
	for _, c := range d.UnusedCodes() {
		switch {
		case !reported(c, ran, known):
		case !known[c]:
			unknown = append(unknown, c)
		default:
			unused = append(unused, c)
		}
	}
	var parts []string
	if len(unused) > 0 {
		parts = append(parts, fmt.Sprintf("unused `noqa` code%s %s", plural(unused), strings.Join(unused, ", ")))
	}
	if len(unknown) > 0 {
		parts = append(parts, fmt.Sprintf("unknown rule code%s %s", plural(unknown), strings.Join(unknown, ", ")))
	}
	return strings.Join(parts, "; ")
}

func plural(s []string) string {
	if len(s) == 1 {
		return ""
	}
	return "s"
}
