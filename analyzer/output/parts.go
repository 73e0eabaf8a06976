package output

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sglint/sglint/analyzer"
)

// headingMax is the longest heading (in runes) taken from a message; a
// longer first clause is shortened (asides and quoted arguments dropped,
// then cut before a "when", "which", ...), and gives way to the rule's
// title only when no cut fits.
const headingMax = 100

// parts is a finding's message cut for reading at a glance: a heading
// (what is wrong), the why, and the fix. Nothing of the message is lost:
// heading and why together hold all of it but the fix and the record
// citation, which are shown on lines of their own.
type parts struct {
	heading string
	why     string // "" when the heading says it all
	help    string // "" when the message has no separate fix
}

// splitMessage cuts d's message along the shape sglint's messages share:
// `<what>[ (detail)][: or ; <why>][ (record ID)][. <Fix> | ; hint: <Fix>]`.
// A message of another shape keeps its text whole in the why, under the
// rule's title.
func splitMessage(d *analyzer.Diagnostic) parts {
	msg := strings.TrimSpace(oneLine(d.Message))
	if d.Record != "" {
		msg = dropCitation(msg, d.Record)
	}
	base, help := msg, ""
	if i := topLevelIndex(msg, "; hint: "); i >= 0 {
		base, help = msg[:i], msg[i+len("; hint: "):]
	} else if i := lastSentence(msg); i > 0 {
		base, help = msg[:i], msg[i+2:]
	}
	base = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(base), "."))
	help = strings.TrimSpace(help)
	if utf8.RuneCountInString(base) <= headingMax {
		return parts{heading: base, help: help}
	}
	clause, rest := base, ""
	if i, n := firstSeparator(base); i >= 0 {
		clause, rest = base[:i], base[i+n:]
	}
	short := dropParentheticals(clause)
	if utf8.RuneCountInString(short) > headingMax {
		short = quotedArgs().ReplaceAllString(short, "$1")
	}
	if utf8.RuneCountInString(short) > headingMax {
		short = fittingPrefix(short)
	}
	switch {
	case short == "":
		return parts{heading: d.Rule.Title, why: base, help: help}
	case short == clause && rest != "":
		return parts{heading: short, why: rest, help: help}
	}
	return parts{heading: short, why: base, help: help}
}

// dropCitation removes " (record ID ...)" from msg: the record has a line
// of its own.
func dropCitation(msg, record string) string {
	i := strings.Index(msg, "(record "+record)
	if i < 0 {
		return msg
	}
	j := strings.IndexByte(msg[i:], ')')
	if j < 0 {
		return msg
	}
	return strings.TrimSpace(strings.TrimRight(msg[:i], " ") + msg[i+j+1:])
}

// scan calls f with each byte offset of s that lies outside backquotes,
// double quotes and brackets; f returns false to stop.
func scan(s string, f func(i int) bool) {
	depth, tick, quote := 0, false, false
	for i, r := range s {
		switch {
		case r == '`' && !quote:
			tick = !tick
			continue
		case tick:
			continue
		case r == '"':
			quote = !quote
			continue
		case quote:
			continue
		case r == '(' || r == '[' || r == '{':
			depth++
			continue
		case (r == ')' || r == ']' || r == '}') && depth > 0:
			depth--
			continue
		}
		if depth == 0 && !f(i) {
			return
		}
	}
}

// topLevelIndex is the first top-level occurrence of sep in s, or -1.
func topLevelIndex(s, sep string) int {
	found := -1
	scan(s, func(i int) bool {
		if strings.HasPrefix(s[i:], sep) {
			found = i
			return false
		}
		return true
	})
	return found
}

// lastSentence is the offset of the ". " that starts the last top-level
// sentence (one that begins with a capital letter), or -1.
func lastSentence(s string) int {
	found := -1
	scan(s, func(i int) bool {
		if strings.HasPrefix(s[i:], ". ") {
			if r, _ := utf8.DecodeRuneInString(s[i+2:]); unicode.IsUpper(r) {
				found = i
			}
		}
		return true
	})
	return found
}

// firstSeparator is the first top-level ": ", "; " or ". " of s and its
// length, or -1.
func firstSeparator(s string) (int, int) {
	found := -1
	scan(s, func(i int) bool {
		if strings.HasPrefix(s[i:], ": ") || strings.HasPrefix(s[i:], "; ") || strings.HasPrefix(s[i:], ". ") {
			found = i
			return false
		}
		return true
	})
	return found, 2
}

// dropParentheticals removes top-level " (...)" asides from s.
func dropParentheticals(s string) string {
	var b strings.Builder
	depth, tick, quote := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '`' && !quote:
			tick = !tick
		case c == '"' && !tick:
			quote = !quote
		case tick || quote:
		case depth == 0 && c == ' ' && strings.HasPrefix(s[i:], " ("):
			depth = 1
			i++ // the "("
			continue
		case depth > 0 && strings.IndexByte("([{", c) >= 0:
			depth++
		case depth > 0 && strings.IndexByte(")]}", c) >= 0:
			depth--
			if depth == 0 {
				continue
			}
		}
		if depth == 0 {
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// wrap breaks text into lines of at most width runes at spaces (a longer
// word stays whole).
func wrap(text string, width int) []string {
	var lines []string
	var line strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		wn := utf8.RuneCountInString(w)
		if n > 0 && n+1+wn > width {
			lines = append(lines, line.String())
			line.Reset()
			n = 0
		}
		if n > 0 {
			line.WriteByte(' ')
			n++
		}
		line.WriteString(w)
		n += wn
	}
	if n > 0 {
		lines = append(lines, line.String())
	}
	return lines
}

// quotedArgs is an exception built with a literal message,
// `RuntimeError("...")`: a heading names the class, the why quotes it.
var quotedArgs = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b([A-Z]\w*)\("[^"]*"\)`) })

// cuts are where a clause can stop and still say what is wrong: before its
// condition or its second half (`t[k]` raises KeyError| when k ...).
var cuts = []string{" when ", " where ", ", and ", " and ", " which ", ", so ", " because "}

// fittingPrefix is the longest prefix of clause that ends at a top-level
// cut and fits in headingMax runes, or "".
func fittingPrefix(clause string) string {
	best := ""
	scan(clause, func(i int) bool {
		for _, c := range cuts {
			if strings.HasPrefix(clause[i:], c) {
				// A cut before ", which" leaves the comma: a heading does
				// not end on one.
				p := strings.TrimRight(strings.TrimSpace(clause[:i]), ",;:")
				if utf8.RuneCountInString(p) <= headingMax && len(p) > len(best) {
					best = p
				}
			}
		}
		return true
	})
	return best
}
