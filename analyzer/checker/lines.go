package checker

import (
	"unicode/utf8"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/syntax"
)

// maxLineText bounds Diagnostic.LineText: a finding on a 10 MB minified line
// must not copy the line into every diagnostic. Fingerprints only need a
// stable prefix.
const maxLineText = 4096

// lineIndex holds the line starts of the files that have findings, built
// from their source when first needed (trees may not be in memory).
type lineIndex map[*analyzer.File][]uint32

// text is line (1-based) of f without its line ending, at most maxLineText
// bytes cut at a rune boundary.
func (ix lineIndex) text(f *analyzer.File, line int) string {
	starts, ok := ix[f]
	if !ok {
		starts = syntax.LineStarts(f.Src())
		ix[f] = starts
	}
	return clipLine(syntax.LineIn(f.Src(), starts, line))
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
