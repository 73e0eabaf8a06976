package output

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sglint/sglint/analyzer"
)

// wrapWidth is where the full format wraps its prose (runes after the
// label), so that a finding reads in a terminal without scrolling.
const wrapWidth = 80

// Full writes each finding as a block, after ruff's and rustc's: a short
// first line with the severity and rule, the location, the source line
// with a caret under the span, then the why, the record, the related
// places (the chain that makes a function a send path) and the fix:
//
//	error[SGL001]: `src` may be empty here
//	  --> pkg/conn.py:34:16
//	   |
//	34 |         return src
//	   |                ^^^
//	   |
//	   = why: ...
//	   = record: 795554d942550d42
//	   = see: line 51:9: send entry `Manager.add_transfer_request`
//	   = help: Check it first and skip the KV send
//
// then the summary line.
func Full(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	c := paintOf(r)
	for i := range r.Diagnostics {
		writeBlock(b, &r.Diagnostics[i], c)
		b.WriteByte('\n')
	}
	if !r.Quiet {
		b.WriteString(Summary(r))
		b.WriteByte('\n')
	}
	return b.Flush()
}

func writeBlock(b *bufio.Writer, d *analyzer.Diagnostic, c paint) {
	p := splitMessage(d)
	sev := c.severity(d)
	fmt.Fprintf(b, "%s%s[%s]%s%s: %s%s\n", sev, d.Severity(), d.Rule.ID, c.reset, c.bold, p.heading, c.reset)
	num := strconv.Itoa(d.Start.Line)
	pad := strings.Repeat(" ", len(num))
	fmt.Fprintf(b, "%s%s-->%s %s:%d:%d\n", pad, c.blue, c.reset, d.Path, d.Start.Line, d.Start.Column)
	if d.Start.Line > 0 {
		src, caret := frame(d)
		bar := c.blue + "|" + c.reset
		fmt.Fprintf(b, "%s %s\n%s%s%s %s %s\n%s %s %s%s%s\n%s %s\n", pad, bar, c.blue, num, c.reset, bar, src, pad, bar, sev, caret, c.reset, pad, bar)
	}
	note := func(label, text string) {
		lines := wrap(text, wrapWidth)
		indent := pad + "   " + strings.Repeat(" ", len(label)+2)
		for i, l := range lines {
			if i == 0 {
				fmt.Fprintf(b, "%s %s=%s %s%s:%s %s\n", pad, c.blue, c.reset, c.cyan, label, c.reset, l)
			} else {
				fmt.Fprintf(b, "%s%s\n", indent, l)
			}
		}
	}
	if p.why != "" {
		note("why", p.why)
	}
	if d.Record != "" {
		note("record", d.Record)
	}
	label := "see"
	if d.Rule.RelatedIsChain {
		label = "chain"
	}
	for i, rel := range d.Related {
		where := fmt.Sprintf("line %d:%d", rel.Line, rel.Column)
		if rel.Path != d.Path {
			where = fmt.Sprintf("%s:%d:%d", rel.Path, rel.Line, rel.Column)
		}
		text := where + ": " + oneLine(rel.Message)
		if i == 0 {
			fmt.Fprintf(b, "%s %s=%s %s%s:%s %s\n", pad, c.blue, c.reset, c.cyan, label, c.reset, text)
		} else {
			fmt.Fprintf(b, "%s   %s  %s\n", pad, strings.Repeat(" ", len(label)), text)
		}
	}
	if p.help != "" {
		note("help", p.help)
	}
}

// frame returns the finding's source line as shown (tabs expanded, bytes
// that are not UTF-8 shown as U+FFFD, one column each as the positions
// count them) and the caret line under its span: from the start column to
// the end column, or to the end of the line for a span that goes on; one
// caret for an empty span.
func frame(d *analyzer.Diagnostic) (src, caret string) {
	var line, under strings.Builder
	text := strings.TrimRight(d.LineText, " \t\r\n")
	endCol := d.End.Column
	if d.End.Line != d.Start.Line {
		endCol = utf8.RuneCountInString(text) + 1
	}
	marks := 0
	col := 1
	for i := 0; i < len(text); col++ {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		shown := string(r)
		if r == '\t' {
			shown = "    "
		}
		line.WriteString(shown)
		fill := " "
		if col >= d.Start.Column && col < endCol {
			fill = "^"
			marks++
		}
		if col < d.Start.Column || fill == "^" {
			under.WriteString(strings.Repeat(fill, utf8.RuneCountInString(shown)))
		}
	}
	if marks == 0 { // an empty span, or one at the end of the line
		for ; col < d.Start.Column; col++ {
			under.WriteByte(' ')
		}
		under.WriteByte('^')
	}
	return line.String(), under.String()
}
