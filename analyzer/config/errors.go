package config

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/sglint/sglint/internal/didyoumean"
)

// Error is one problem in a config file: where it is, which key, what is
// wrong. The CLI prints it and exits with status 2.
type Error struct {
	File   string // the config file, as given or found
	Line   int    // 1-based; 0 when unknown
	Column int    // 1-based; 0 when unknown
	Key    string // dotted key as written, e.g. tool.sglint.select[1]
	Msg    string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors are all the problems found in one file, in file order.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

func (es Errors) sort() {
	slices.SortStableFunc(es, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.Key, b.Key))
	})
}

// didYouMean formats a suggestion suffix, or "" without one.
func didYouMean(word string, candidates []string) string {
	if s, ok := didyoumean.Closest(word, candidates); ok {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// dotted renders a key path the way TOML writes it, quoting parts that are
// not bare keys and attaching array indexes: per-file-ignores."tests/*.py".
func dotted(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if strings.HasPrefix(p, "[") {
			b.WriteString(p)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if isBareKey(p) {
			b.WriteString(p)
		} else {
			fmt.Fprintf(&b, "%q", p)
		}
	}
	return b.String()
}

func isBareKey(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
