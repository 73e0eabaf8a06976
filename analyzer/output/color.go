package output

import "github.com/sglint/sglint/analyzer"

// paint holds the ANSI styles of the text formats when the report is
// coloured (Report.Color), and empty strings when it is not, so that the
// writers never branch on it.
type paint struct {
	err, warn, bold, blue, cyan, reset string
}

func paintOf(r *Report) paint {
	if !r.Color {
		return paint{}
	}
	return paint{err: "\x1b[1;31m", warn: "\x1b[1;33m", bold: "\x1b[1m", blue: "\x1b[1;34m", cyan: "\x1b[1;36m", reset: "\x1b[0m"}
}

// severity is the style of a finding's severity and rule.
func (p paint) severity(d *analyzer.Diagnostic) string {
	if d.Severity() == analyzer.Error {
		return p.err
	}
	return p.warn
}
