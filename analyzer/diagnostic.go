package analyzer

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/sglint/sglint/analyzer/syntax"
)

// Related is a secondary location of a diagnostic: an entry point, a step
// of a call chain, the place where state is filled.
type Related struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// Diagnostic is one finding. Lines are 1-based; columns are 1-based and
// counted in Unicode code points.
type Diagnostic struct {
	Rule     *Rule
	Path     string // relative to the working directory, forward slashes
	Start    syntax.Position
	End      syntax.Position
	Message  string
	Function string // qualified name of the innermost enclosing function
	Record   string // record id, defaults to the rule's
	Related  []Related
	LineText string // the source line of Start, for fingerprints and baselines
	// Fix is a safe edit that resolves the finding (`sglint --fix` applies
	// it), nil when there is none.
	Fix       *Fix
	severity  Severity
	overrides bool
}

// Fix is what `--fix` does for a finding: text edits of its file.
type Fix struct {
	Message string // what it does, e.g. "remove the unused code SGL004"
	Edits   []TextEdit
}

// TextEdit replaces the text between Start and End (same coordinates as
// a Diagnostic's) with New. An edit that deletes a comment's whole text
// also takes the blanks before it, and the line when nothing is left.
type TextEdit struct {
	Start, End syntax.Position
	New        string
}

// Problem is a file that could not be checked, or an internal error.
type Problem struct {
	Path     string
	Message  string
	Internal bool // a bug in sglint (a recovered panic), not bad input
	// Warning marks a file skipped on purpose (binary, too large): worth a
	// note, but not a failure of the run.
	Warning bool
}

func (p Problem) String() string {
	switch {
	case p.Internal:
		return fmt.Sprintf("%s: internal error: %s", p.Path, p.Message)
	case p.Warning:
		return fmt.Sprintf("%s: warning: %s", p.Path, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.Path, p.Message)
}

// Severity of the diagnostic: the rule's unless overridden at report time.
func (d *Diagnostic) Severity() Severity {
	if d.overrides {
		return d.severity
	}
	return d.Rule.Severity
}

// SeverityOverride returns the severity SetSeverity gave, if any (for a
// driver that stores findings).
func (d *Diagnostic) SeverityOverride() (Severity, bool) { return d.severity, d.overrides }

// SetSeverity overrides the rule's default severity for this finding (a rule
// with an error and a warning variant).
func (d *Diagnostic) SetSeverity(s Severity) { d.severity, d.overrides = s, true }

// SortDiagnostics orders by path, line, column, rule, then message, so that
// output is byte-identical whatever the number of workers.
func SortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int { return CompareDiagnostics(&a, &b) })
}

// CompareDiagnostics is the order SortDiagnostics sorts by: path,
// position, rule, message.
func CompareDiagnostics(a, b *Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.Start.Line, b.Start.Line),
		cmp.Compare(a.Start.Column, b.Start.Column),
		cmp.Compare(a.Rule.ID, b.Rule.ID),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.End.Line, b.End.Line),
		cmp.Compare(a.End.Column, b.End.Column),
	)
}
