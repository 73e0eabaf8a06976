package analyzer

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/sglint/sglint/analyzer/syntax"
)

// maxLineText bounds Diagnostic.LineText: a finding on a 10 MB minified line
// must not copy the line into every diagnostic. Fingerprints only need a
// stable prefix.
const maxLineText = 4096

// lineIndex caches the line starts of the files that have findings.
type lineIndex map[*File][]uint32

// text returns line (1-based) of f without its line break, at most
// maxLineText bytes cut at a rune boundary.
func (ix lineIndex) text(f *File, line int) string {
	starts, ok := ix[f]
	if !ok {
		starts = syntax.LineStarts(f.Tree.Src)
		ix[f] = starts
	}
	if line < 1 || line > len(starts) {
		return ""
	}
	src := f.Tree.Src
	b := src[starts[line-1]:]
	if line < len(starts) {
		b = src[starts[line-1] : starts[line]-1]
	}
	if len(b) > maxLineText {
		cut := maxLineText
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		return string(b[:cut])
	}
	return strings.TrimSuffix(string(b), "\r")
}

// NormalizeLine collapses runs of whitespace and trims both ends, so that
// re-indenting a line or re-spacing it keeps its fingerprint.
func NormalizeLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Fingerprint identifies a finding without its line number, so that it
// survives code moving up or down: a hash of the rule, the path and the
// normalised text of the finding's first line. Findings of one rule on
// identical lines of one file share it; SARIF adds an occurrence count.
func (d *Diagnostic) Fingerprint() string {
	h := sha256.New()
	h.Write([]byte(d.Rule.ID))
	h.Write([]byte{0})
	h.Write([]byte(d.Path))
	h.Write([]byte{0})
	h.Write([]byte(NormalizeLine(d.LineText)))
	return hex.EncodeToString(h.Sum(nil)[:8])
}
