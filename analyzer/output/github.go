package output

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/sglint/sglint/analyzer"
)

// GitHub writes one workflow command per finding, which GitHub Actions shows
// as an annotation on the file:
//
//	::error title=sglint (SGL001),file=a.py,line=3,col=5,endLine=3,endColumn=9::a.py:3:5: SGL001 message
//
// GitHub shows at most 10 errors and 10 warnings per step (50 per job), so
// the plain text output follows the commands: the log has every finding.
func GitHub(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		command := "warning"
		if d.Severity() == analyzer.Error {
			command = "error"
		}
		fmt.Fprintf(b, "::%s title=%s,file=%s,line=%d,col=%d,endLine=%d,endColumn=%d::%s\n",
			command,
			escapeProperty("sglint ("+d.Rule.ID+")"),
			escapeProperty(d.Path),
			d.Start.Line, d.Start.Column, d.End.Line, d.End.Column,
			escapeData(textLine(d)))
	}
	writeText(b, r)
	return b.Flush()
}

// escapeData escapes a workflow command's message, as @actions/core does.
var escapeData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace

// escapeProperty escapes a property value: also ':' and ','.
var escapeProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace
