package output

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/sglint/sglint/analyzer"
)

// Text writes `path:line:col: RULE message` per finding, then a summary
// line: "Found N problems in F files." or "All checks passed.".
func Text(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	writeText(b, r)
	return b.Flush()
}

func writeText(b *bufio.Writer, r *Report) {
	for i := range r.Diagnostics {
		b.WriteString(textLine(&r.Diagnostics[i]))
		b.WriteByte('\n')
	}
	b.WriteString(Summary(r.Diagnostics))
	b.WriteByte('\n')
}

// textLine is one finding on one line: line breaks in a message (a rule's
// bug) become spaces, so that editors and grep see one finding per line.
func textLine(d *analyzer.Diagnostic) string {
	return fmt.Sprintf("%s:%d:%d: %s %s", d.Path, d.Start.Line, d.Start.Column, d.Rule.ID, oneLine(d.Message))
}

var oneLine = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace

// Summary is the closing line of the text output: how many problems, in
// how many files, or "All checks passed.".
func Summary(ds []analyzer.Diagnostic) string {
	if len(ds) == 0 {
		return "All checks passed."
	}
	files := map[string]bool{}
	for i := range ds {
		files[ds[i].Path] = true
	}
	return fmt.Sprintf("Found %s in %s.", plural(len(ds), "problem"), plural(len(files), "file"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
