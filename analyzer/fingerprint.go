package analyzer

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

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
