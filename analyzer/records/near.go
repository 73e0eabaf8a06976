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
