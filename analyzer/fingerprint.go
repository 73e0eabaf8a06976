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

// lineIndex holds the line starts of the files that have findings, built
// from their source when first needed (trees may not be in memory).
type lineIndex map[*File][]uint32

// text is line (1-based) of f without its line ending, at most maxLineText
// bytes cut at a rune boundary.
func (ix lineIndex) text(f *File, line int) string {
	starts, ok := ix[f]
	if !ok {
		starts = syntax.LineStarts(f.src)
		ix[f] = starts
	}
	return clipLine(syntax.LineIn(f.src, starts, line))
}

func clipLine(s string) string {
	if len(s) <= maxLineText {
		return s
	}
	cut := maxLineText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
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
