package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/output"
)

// ruleCount is one row of --statistics.
type ruleCount struct {
	Rule  string `json:"rule"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// writeStatistics prints the number of findings per rule, most frequent
// first (then by ID): a table for text, an array for json.
func writeStatistics(w io.Writer, format string, r *output.Report) error {
	ds := r.Diagnostics
	counts := map[*analyzer.Rule]int{}
	for i := range ds {
		counts[ds[i].Rule]++
	}
	rows := []ruleCount{}
	for r, n := range counts {
		rows = append(rows, ruleCount{Rule: r.ID, Name: r.Name, Count: n})
	}
	slices.SortFunc(rows, func(a, b ruleCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Rule, b.Rule))
	})
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	width := 1
	for _, r := range rows {
		width = max(width, len(fmt.Sprint(r.Count)))
	}
	for _, r := range rows {
		if _, err := fmt.Fprintf(w, "%*d  %s  %s\n", width, r.Count, r.Rule, r.Name); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, output.Summary(r)) // the same closing line as the findings'
	return err
}
