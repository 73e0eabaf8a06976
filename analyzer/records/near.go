package records

import (
	"regexp"
	"strings"
	"unicode"
)

// Near is a record made to find the statements that come close to r when
// none matches it: same class, any message holding r's most telling word
// (its longest). Its id is r's with a "~near" suffix; nil when r's
// message has no word to look for.
func (r *Record) Near() *Record {
	word := ""
	for _, w := range words(r.message()) {
		if len(w) > len(word) {
			word = w
		}
	}
	if len(word) < 4 {
		return nil
	}
	n := &Record{ID: r.ID + "~near", ErrorClass: r.ErrorClass, MessagePattern: "(?s).*" + regexp.QuoteMeta(word) + ".*"}
	n.compile()
	return n
}

// Likeness is the share of r's message words that text holds, in [0, 1].
func (r *Record) Likeness(text string) float64 {
	want := words(r.message())
	if len(want) == 0 {
		return 0
	}
	have := map[string]bool{}
	for _, w := range words(text) {
		have[w] = true
	}
	n := 0
	for _, w := range want {
		if have[w] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// message is the concrete message, else the pattern.
func (r *Record) message() string {
	if r.ErrorMessage != "" {
		return r.ErrorMessage
	}
	return r.MessagePattern
}

// words are the lower-cased runs of letters and digits of s.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
}

// Weak reports a template with too little literal text to stand for the
// record on its own: no letter or digit at all (`f"{ctx}: {err}"`, `f"{a}
// {b}"`), or fewer letters and digits than the record's concrete message
// (errorMessage) has words. The record's own evidence (its filePath, its
// sourceCode) can still pin such a template as a site.
func (r *Record) Weak(tp Template) bool {
	n, _ := literal(tp)
	return n == 0 || n < len(words(r.ErrorMessage))
}

// Foreign reports a template with literal text enough to stand alone that
// holds fewer than half of the words the pattern requires literally: a
// match only asks that some text fit both, and a hole absorbs the
// record's words as the pattern's `.*` absorbs the template's, so
// `f"{x} must be divisible by {y}"` fits `First message should be .*\.
// Foreign traffic\?` without sharing a word with it. Such a template is
// another message; no evidence makes it a site.
func (r *Record) Foreign(tp Template) bool {
	if r.Weak(tp) {
		return false
	}
	if r.prog == nil {
		r.compile()
	}
	_, text := literal(tp)
	return 2*shared(r.litWords, words(text)) < len(r.litWords)
}

// literal counts the template's letters and digits and returns its
// literal text, a space for each hole.
func literal(tp Template) (int, string) {
	n := 0
	var text strings.Builder
	for _, p := range tp {
		if p.Hole {
			text.WriteByte(' ')
			continue
		}
		text.WriteString(p.Text)
		for _, c := range p.Text {
			if unicode.IsLetter(c) || unicode.IsDigit(c) {
				n++
			}
		}
	}
	return n, text.String()
}

// shared counts the words of want that have holds, each use once.
func shared(want, have []string) int {
	left := map[string]int{}
	for _, w := range have {
		left[w]++
	}
	n := 0
	for _, w := range want {
		if left[w] > 0 {
			left[w]--
			n++
		}
	}
	return n
}

// snippetWindow is how far from the site the record's snippet lines are
// looked for.
const snippetWindow = 40

// SnippetScore counts the lines of the record's sourceCode (distinct,
// trimmed, of eight characters or more) found among the lines of src
// within snippetWindow of line: the code around a site agrees with the
// code the record saw, however far it moved in the file.
func (r *Record) SnippetScore(src []byte, line int) int {
	want := map[string]bool{}
	for _, l := range strings.Split(r.SourceCode, "\n") {
		if l = strings.TrimSpace(l); len(l) >= 8 {
			want[l] = true
		}
	}
	if len(want) == 0 {
		return 0
	}
	lines := strings.Split(string(src), "\n")
	lo, hi := max(line-1-snippetWindow, 0), min(line+snippetWindow, len(lines))
	n := 0
	for i := lo; i < hi; i++ {
		if l := strings.TrimSpace(lines[i]); want[l] {
			n++
			delete(want, l)
		}
	}
	return n
}
