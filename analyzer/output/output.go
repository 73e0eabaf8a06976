// Package output writes a run's diagnostics in sglint's output formats:
// full and concise text, json, github (workflow commands) and sarif
// (SARIF 2.1.0).
package output

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/internal/didyoumean"
)

// Tool identifies sglint in machine-readable formats.
type Tool struct {
	Name           string
	Version        string
	InformationURI string
}

// Report is everything a format may show about a run.
type Report struct {
	Tool        Tool
	Diagnostics []analyzer.Diagnostic // sorted, suppressions applied
	Problems    []analyzer.Problem    // files not checked and internal errors
	Rules       []*analyzer.Rule      // the rules that ran (SARIF's rules[])
	Files       int                   // files checked
	// OnlyRead counts the files of Files read but not analysed (outside
	// the KV code and what it calls): the summary says so, since a syntax
	// error there goes unreported.
	OnlyRead int
	// NotRun lists selected rules that could not run, and why.
	NotRun []NotRun
	// BaselineHidden counts the findings a baseline hid.
	BaselineHidden int
	// Baselined are those findings, sorted, and BaselineFile the baseline:
	// SARIF keeps them as results suppressed externally, so that code
	// scanning does not close their alerts as fixed.
	Baselined    []analyzer.Diagnostic
	BaselineFile string
	// SrcRoot, if set, is the absolute directory the relative paths start
	// from; SARIF records it as %SRCROOT%.
	SrcRoot string
	// CodeFlow, if set, returns the steps of a call chain that leads to d
	// (entry point first); SARIF then emits them as a codeFlow. Rules whose
	// related locations form such a chain plug in here.
	CodeFlow func(d *analyzer.Diagnostic) []analyzer.Related
	// Color styles the full and concise formats with ANSI escapes (a
	// terminal: --color); the others ignore it.
	Color bool
	// Quiet leaves out the summary line of the text formats (--quiet).
	Quiet bool
}

// NotRun is a selected rule that could not run (SGL010 without records).
type NotRun struct {
	Rule   *analyzer.Rule
	Reason string // e.g. "no records are loaded"
}

// Formatter writes a report to w.
type Formatter func(w io.Writer, r *Report) error

var formats = map[string]Formatter{
	"full":    Full,
	"concise": Concise,
	"text":    Concise, // the name of the one-line form before full existed
	"json":    JSON,
	"github":  GitHub,
	"sarif":   SARIF,
}

// Lookup returns the formatter called name.
func Lookup(name string) (Formatter, error) {
	if f, ok := formats[name]; ok {
		return f, nil
	}
	hint := ""
	if s, ok := didyoumean.Closest(name, Names()); ok {
		hint = fmt.Sprintf(" (did you mean %s?)", s)
	}
	return nil, fmt.Errorf("unknown format %q%s: want one of %s", name, hint, strings.Join(Names(), ", "))
}

// Names lists the formats, sorted.
func Names() []string {
	names := make([]string, 0, len(formats))
	for n := range formats {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// rulesOf returns the rules that ran plus any rule that reported without
// being listed, sorted by ID, with each rule's index.
func rulesOf(r *Report) ([]*analyzer.Rule, map[*analyzer.Rule]int) {
	rules := slices.Clone(r.Rules)
	for i := range r.Diagnostics {
		if rule := r.Diagnostics[i].Rule; !slices.Contains(rules, rule) {
			rules = append(rules, rule)
		}
	}
	slices.SortStableFunc(rules, func(a, b *analyzer.Rule) int {
		if a.ID < b.ID {
			return -1
		} else if a.ID > b.ID {
			return 1
		}
		return 0
	})
	index := make(map[*analyzer.Rule]int, len(rules))
	for i, rule := range rules {
		index[rule] = i
	}
	return rules, index
}
