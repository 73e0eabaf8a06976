package output

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer"
)

// Concise writes `path:line:col: RULE message` per finding, then the
// summary line (Summary). One finding per line, for grep and editors.
func Concise(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	writeConcise(b, r)
	return b.Flush()
}

func writeConcise(b *bufio.Writer, r *Report) {
	c := paintOf(r)
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		b.WriteString(textLine(d, c))
		b.WriteByte('\n')
	}
	if !r.Quiet {
		b.WriteString(Summary(r))
		b.WriteByte('\n')
	}
}

// textLine is one finding on one line: where, the rule, and what is wrong
// in a heading of at most headingMax runes (the message's first clause, as
// the full format's first line; the why, the chain and the fix are in the
// full, JSON and SARIF formats). Line breaks in a message (a rule's bug)
// become spaces, so that editors and grep see one finding per line.
// Uncoloured, c's styles are empty.
func textLine(d *analyzer.Diagnostic, c paint) string {
	return fmt.Sprintf("%s%s:%d:%d:%s %s%s%s %s", c.bold, d.Path, d.Start.Line, d.Start.Column, c.reset,
		c.severity(d), d.Rule.ID, c.reset, oneLine(splitMessage(d).heading))
}

var oneLine = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace

// Summary is the closing line of the text formats: the findings counted by
// severity and rule, then what the run did not check (paths it could not
// read, files skipped, internal errors, selected rules that could not
// run) and what the baseline hid. "All checks passed." only when there is
// none of that.
func Summary(r *Report) string {
	var notes []string
	unread, internal, skipped := problemCounts(r.Problems)
	if unread > 0 {
		notes = append(notes, plural(unread, "path")+" could not be read")
	}
	if internal > 0 {
		notes = append(notes, plural(internal, "file")+" hit an internal error")
	}
	switch {
	case skipped == 1:
		notes = append(notes, "1 file was skipped")
	case skipped > 1:
		notes = append(notes, plural(skipped, "file")+" were skipped")
	}
	for _, nr := range r.NotRun {
		notes = append(notes, fmt.Sprintf("%s did not run (%s)", nr.Rule.ID, nr.Reason))
	}
	if r.BaselineHidden > 0 {
		notes = append(notes, "the baseline hid "+plural(r.BaselineHidden, "finding"))
	}
	if r.OnlyRead > 0 {
		notes = append(notes, plural(r.OnlyRead, "file")+" only read, not analysed (not KV code; --all-files analyses them)")
	}
	var head string
	switch ds := r.Diagnostics; {
	case len(ds) > 0:
		files := map[string]bool{}
		for i := range ds {
			files[ds[i].Path] = true
		}
		head = fmt.Sprintf("Found %s in %s: %s", plural(len(ds), "problem"), plural(len(files), "file"), bySeverity(ds))
	case len(notes) == 0:
		return "All checks passed."
	case r.Files > r.OnlyRead && r.OnlyRead > 0:
		head = "No problems found in " + plural(r.Files-r.OnlyRead, "file") + " analysed"
	case r.Files > r.OnlyRead:
		head = "No problems found in " + plural(r.Files, "file")
	case r.Files > 0:
		head = "Nothing was analysed"
	default:
		head = "Nothing was checked"
	}
	if len(notes) == 0 {
		return head + "."
	}
	return head + "; " + strings.Join(notes, ", ") + "."
}

// problemCounts counts the distinct paths that could not be read, that hit
// an internal error, and that were skipped on purpose (warnings).
func problemCounts(ps []analyzer.Problem) (unread, internal, skipped int) {
	type key struct {
		kind int // 0 unread, 1 internal, 2 skipped
		path string
	}
	var n [3]int
	seen := map[key]bool{}
	for _, p := range ps {
		k := key{0, p.Path}
		switch {
		case p.Internal:
			k.kind = 1
		case p.Warning:
			k.kind = 2
		}
		if !seen[k] {
			seen[k] = true
			n[k.kind]++
		}
	}
	return n[0], n[1], n[2]
}

// bySeverity counts findings by severity, errors first, and within each by
// rule: "4 errors (SGL001 ×2, SGL002, SGL004), 1 warning (SGL003)".
func bySeverity(ds []analyzer.Diagnostic) string {
	type count struct {
		sev  analyzer.Severity
		n    int
		byID map[string]int
	}
	var counts []*count
	for i := range ds {
		sev := ds[i].Severity()
		j := slices.IndexFunc(counts, func(c *count) bool { return c.sev == sev })
		if j < 0 {
			counts = append(counts, &count{sev: sev, byID: map[string]int{}})
			j = len(counts) - 1
		}
		counts[j].n++
		counts[j].byID[ds[i].Rule.ID]++
	}
	slices.SortFunc(counts, func(a, b *count) int { return cmp.Compare(b.sev, a.sev) })
	var out []string
	for _, c := range counts {
		var ids []string
		for _, id := range slices.Sorted(maps.Keys(c.byID)) {
			if n := c.byID[id]; n > 1 {
				ids = append(ids, fmt.Sprintf("%s ×%d", id, n))
			} else {
				ids = append(ids, id)
			}
		}
		out = append(out, fmt.Sprintf("%s (%s)", plural(c.n, c.sev.String()), strings.Join(ids, ", ")))
	}
	return strings.Join(out, ", ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
