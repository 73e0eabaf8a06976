package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/baseline"
)

// writeBaseline records every current finding in file and reports what it
// wrote; the run then succeeds (unless files could not be checked).
func writeBaseline(file string, ds []analyzer.Diagnostic, stderr io.Writer, failed bool) int {
	b, err := baseline.Write(file, ds)
	if err != nil {
		fmt.Fprintf(stderr, "sglint: %s: %v\n", file, err)
		return ExitError
	}
	fmt.Fprintf(stderr, "sglint: wrote %s: %d finding(s) in %d entr%s\n", file, b.Findings(), len(b.Entries),
		map[bool]string{true: "y", false: "ies"}[len(b.Entries) == 1])
	if failed {
		return ExitError
	}
	return ExitClean
}

// applyBaseline hides the findings the baseline in file covers and reports
// how many it hid and which of its entries (for the files and rules this
// run covered) no longer match anything. Each group is its own scope: a
// rule that ran for one configuration's files did not run for another's.
func applyBaseline(file string, byGroup [][]analyzer.Diagnostic, gs []*group, stderr io.Writer) (kept, covered []analyzer.Diagnostic, ok bool) {
	b, err := baseline.Read(file)
	if err != nil {
		fmt.Fprintf(stderr, "sglint: %v\n", err)
		return nil, nil, false
	}
	var stale []baseline.Entry
	for i, g := range gs {
		scope := baseline.Scope{Paths: g.files, Rules: map[string]bool{}}
		for _, r := range g.rules {
			scope.Rules[r.ID] = true
		}
		out, err := b.Apply(byGroup[i], filepath.Dir(file), scope)
		if err != nil {
			fmt.Fprintf(stderr, "sglint: %s: %v\n", file, err)
			return nil, nil, false
		}
		kept = append(kept, out.Kept...)
		covered = append(covered, out.Covered...)
		stale = append(stale, out.Stale...)
	}
	analyzer.SortDiagnostics(kept)
	analyzer.SortDiagnostics(covered)
	if len(covered) > 0 {
		fmt.Fprintf(stderr, "sglint: baseline %s hid %d finding(s)\n", file, len(covered))
	}
	for _, e := range stale {
		fmt.Fprintf(stderr, "sglint: warning: stale baseline entry (fixed or changed; rewrite with --write-baseline): %s\n", e)
	}
	return kept, covered, true
}
