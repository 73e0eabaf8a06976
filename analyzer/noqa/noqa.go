// Package noqa finds suppression comments in a parsed file and decides
// whether a finding is suppressed. It records which suppressions were used,
// so that unused ones can be reported later.
//
// Two forms are recognised, in comment nodes only (a string that contains
// "# noqa" is not a comment and suppresses nothing):
//
//	x = f()  # noqa: SGL001, SGL002   the findings of these rules that start on this line
//	x = f()  # noqa                   every finding that starts on this line
//	# sglint: noqa                    every finding in the file
//	# sglint: noqa: SGL001            the findings of SGL001 in the file
//
// "noqa" and "sglint" are matched case-insensitively; codes are rule IDs
// (letters then digits) separated by commas and/or spaces. A directive with
// a colon but no valid code after it ("# noqa: later") is kept as Invalid,
// its Text running to the end of that word, and suppresses nothing: a typo
// must not silence every rule. Rule names ("# noqa: unchecked-peer-lookup")
// are not codes: ruff and flake8 read the same comments, and flake8 takes
// anything but codes for a bare "# noqa" that silences every check.
package noqa

import (
	"bytes"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer/syntax"
)

// Directive is one suppression comment.
type Directive struct {
	Start, End syntax.Position // the directive's text inside its comment
	Text       string          // as written, e.g. "# noqa: SGL001"
	FileLevel  bool            // "# sglint: noqa", applies to the whole file
	Codes      []string        // rule IDs listed, upper-cased; nil: every rule
	Invalid    bool            // a colon without a valid code: suppresses nothing (Text ends after the word found instead)

	used map[string]bool // rule IDs this directive suppressed
}

// Fresh returns a copy of d that has suppressed nothing yet (for a set
// made again at each check of the same text).
func (d *Directive) Fresh() *Directive {
	c := *d
	c.used = nil
	return &c
}

// Applies reports whether the directive covers ruleID (wherever it is).
func (d *Directive) Applies(ruleID string) bool {
	if d.Invalid {
		return false
	}
	return d.Codes == nil || slices.Contains(d.Codes, ruleID)
}

// Word is what an Invalid directive has after its colon instead of a
// code ("unchecked-peer-lookup"), or "".
func (d *Directive) Word() string {
	if !d.Invalid {
		return ""
	}
	return strings.TrimSpace(d.Text[strings.LastIndexByte(d.Text, ':')+1:]) // the word has no colon
}

// Used reports whether the directive suppressed at least one finding.
func (d *Directive) Used() bool { return len(d.used) > 0 }

// UsedCodes are the rule IDs of the findings it suppressed, sorted.
func (d *Directive) UsedCodes() []string {
	codes := make([]string, 0, len(d.used))
	for c := range d.used {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	return codes
}

// UnusedCodes are the listed codes that suppressed nothing, in the order
// written. A bare directive has none; ask Used instead.
func (d *Directive) UnusedCodes() []string {
	var out []string
	for _, c := range d.Codes {
		if !d.used[c] {
			out = append(out, c)
		}
	}
	return out
}

// Set holds the directives of one file.
type Set struct {
	Path       string       // display path of the file, set by the engine
	Directives []*Directive // in source order
	byLine     map[int][]*Directive
	fileLevel  []*Directive
}

// Suppresses reports whether a finding of ruleID starting on line is
// suppressed, and marks every directive that covers it as used.
func (s *Set) Suppresses(ruleID string, line int) bool {
	if s == nil {
		return false
	}
	hit := false
	for _, d := range s.byLine[line] {
		if d.Applies(ruleID) {
			d.markUsed(ruleID)
			hit = true
		}
	}
	for _, d := range s.fileLevel {
		if d.Applies(ruleID) {
			d.markUsed(ruleID)
			hit = true
		}
	}
	return hit
}

func (d *Directive) markUsed(ruleID string) {
	if d.used == nil {
		d.used = map[string]bool{}
	}
	d.used[ruleID] = true
}

// NewSet returns the set of the directives ds, in source order, as Parse
// found them in an earlier run (the cache keeps them). Their usage starts
// empty.
func NewSet(path string, ds []*Directive) *Set {
	s := &Set{Path: path, byLine: map[int][]*Directive{}}
	for _, d := range ds {
		s.add(d)
	}
	return s
}

func (s *Set) add(d *Directive) {
	s.Directives = append(s.Directives, d)
	if d.FileLevel {
		s.fileLevel = append(s.fileLevel, d)
	} else {
		s.byLine[d.Start.Line] = append(s.byLine[d.Start.Line], d)
	}
}

// Parse collects the directives in the comments of t.
func Parse(t *syntax.Tree) *Set {
	s := &Set{byLine: map[int][]*Directive{}}
	if !mentionsNoqa(t.Src) {
		return s // most files: no need to visit every node for comments
	}
	for i := 0; i < t.Len(); i++ {
		n := syntax.NodeID(i)
		if t.Kind(n) != syntax.Comment {
			continue
		}
		text := t.Text(n)
		if !containsFold(text, "noqa") {
			continue
		}
		base := t.StartByte(n)
		for _, m := range scan(text) {
			s.add(&Directive{
				Start:     t.Pos(base + m.start),
				End:       t.Pos(base + m.end),
				Text:      text[m.start:m.end],
				FileLevel: m.fileLevel,
				Codes:     m.codes,
				Invalid:   m.invalid,
			})
		}
	}
	return s
}

type match struct {
	start, end int
	fileLevel  bool
	codes      []string
	invalid    bool
}

// scan finds the directives in one comment's text. Each starts at a '#'.
func scan(text string) []match {
	var out []match
	for i := 0; i < len(text); i++ {
		if text[i] != '#' {
			continue
		}
		j := skipSpace(text, i+1)
		m := match{start: i}
		if k, ok := keyword(text, j, "sglint"); ok {
			k = skipSpace(text, k)
			if k >= len(text) || text[k] != ':' {
				continue
			}
			j, m.fileLevel = skipSpace(text, k+1), true
		}
		k, ok := keyword(text, j, "noqa")
		if !ok {
			continue
		}
		m.end = k
		if c := skipSpace(text, k); c < len(text) && text[c] == ':' {
			m.codes, m.end = parseCodes(text, c+1)
			if m.codes == nil {
				// The text keeps the word that is not a code, so that a
				// warning can show it (a rule's name, say).
				w := skipSpace(text, c+1)
				m.invalid, m.end = true, wordEnd(text, w)
				if m.end == w {
					m.end = c + 1
				}
			}
		}
		out = append(out, m)
		i = m.end - 1
	}
	return out
}

// parseCodes reads rule IDs separated by commas and spaces from text[i:],
// stopping at the first word that is not one. It returns the codes and the
// offset just past the last one.
func parseCodes(text string, i int) ([]string, int) {
	var codes []string
	end := i
	for {
		j := i
		for j < len(text) && (text[j] == ',' || isSpace(text[j])) {
			j++
		}
		k := j
		for k < len(text) && isLetter(text[k]) {
			k++
		}
		letters := k - j
		for k < len(text) && text[k] >= '0' && text[k] <= '9' {
			k++
		}
		if letters == 0 || k == j+letters || (k < len(text) && isWord(text[k])) {
			return codes, end
		}
		codes = append(codes, strings.ToUpper(text[j:k]))
		i, end = k, k
	}
}

// keyword matches word case-insensitively at text[i:] as a whole word.
func keyword(text string, i int, word string) (int, bool) {
	end := i + len(word)
	if end > len(text) || !strings.EqualFold(text[i:end], word) {
		return i, false
	}
	if end < len(text) && isWord(text[end]) {
		return i, false
	}
	return end, true
}

// wordEnd returns the end of the word (letters, digits, '-', '_') at i.
func wordEnd(text string, i int) int {
	for i < len(text) && isWord(text[i]) {
		i++
	}
	return i
}

func skipSpace(text string, i int) int {
	for i < len(text) && isSpace(text[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool  { return c == ' ' || c == '\t' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isWord(c byte) bool   { return isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '-' }

// mentionsNoqa reports whether src contains "noqa" in any case, looking
// only around its q's.
func mentionsNoqa(src []byte) bool {
	for _, q := range []byte{'q', 'Q'} {
		for i := 0; ; {
			j := bytes.IndexByte(src[i:], q)
			if j < 0 {
				break
			}
			k := i + j
			if k >= 2 && k+1 < len(src) && strings.EqualFold(string(src[k-2:k+2]), "noqa") {
				return true
			}
			i = k + 1
		}
	}
	return false
}

// containsFold is a cheap case-insensitive pre-check before scanning.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}
