package output

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/sglint/sglint/analyzer"
)

// GitHub writes one workflow command per finding, which GitHub Actions shows
// as an annotation on the file: the finding's heading (the first line of
// the full format) is the title, the why, record, related places and fix
// are the message:
//
//	::error title=SGL001: `src` may be empty here,file=a.py,line=3,col=5,endLine=3,endColumn=9::why...%0Ahelp: ...
//
// GitHub shows at most 10 errors and 10 warnings per step (50 per job), so
// the concise text output follows the commands: the log has every finding.
func GitHub(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		command := "warning"
		if d.Severity() == analyzer.Error {
			command = "error"
		}
		p := splitMessage(d)
		fmt.Fprintf(b, "::%s title=%s,file=%s,line=%d,col=%d,endLine=%d,endColumn=%d::%s\n",
			command,
			escapeProperty(d.Rule.ID+": "+p.heading),
			escapeProperty(d.Path),
			d.Start.Line, d.Start.Column, d.End.Line, d.End.Column,
			escapeData(annotationBody(d, p)))
	}
	writeConcise(b, r)
	return b.Flush()
}

// annotationBody is what the full format shows below the source line, one
// item a line; the heading when there is nothing else.
func annotationBody(d *analyzer.Diagnostic, p parts) string {
	var lines []string
	if p.why != "" {
		lines = append(lines, p.why)
	}
	if d.Record != "" {
		lines = append(lines, "record: "+d.Record)
	}
	for _, rel := range d.Related {
		lines = append(lines, fmt.Sprintf("%s:%d:%d: %s", rel.Path, rel.Line, rel.Column, oneLine(rel.Message)))
	}
	if p.help != "" {
		lines = append(lines, "help: "+p.help)
	}
	if len(lines) == 0 {
		return p.heading
	}
	return strings.Join(lines, "\n")
}

// escapeData escapes a workflow command's message, as @actions/core does.
var escapeData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace

// escapeProperty escapes a property value: also ':' and ','.
var escapeProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace
