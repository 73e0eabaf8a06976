// Package namepattern matches names against the shell patterns that rule
// options take (path.Match syntax: *, ?, [...]). Rules test every call
// argument or function of a project against their patterns, so a Set
// compiles them once and answers the common shapes (literal, "*suffix",
// "prefix*", "*infix*") with plain string tests; the rest go to
// path.Match.
package namepattern

import (
	"fmt"
	"path"
	"strings"
)

// Set is a compiled list of patterns; the zero Set matches nothing.
type Set struct{ pats []pattern }

type kind uint8

const (
	exact kind = iota
	suffix
	prefix
	infix
	glob
)

type pattern struct {
	kind kind
	lit  string // the literal part, or the whole pattern for glob
}

// Compile checks and compiles patterns. The error names the first
// malformed one.
func Compile(patterns []string) (*Set, error) {
	s := &Set{pats: make([]pattern, 0, len(patterns))}
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("%q is not a valid pattern", p)
		}
		s.pats = append(s.pats, compile(p))
	}
	return s, nil
}

// MustCompile is Compile for patterns known to be valid (defaults).
func MustCompile(patterns []string) *Set {
	s, err := Compile(patterns)
	if err != nil {
		panic(err)
	}
	return s
}

func compile(p string) pattern {
	body := p
	lead := strings.HasPrefix(body, "*")
	if lead {
		body = body[1:]
	}
	trail := strings.HasSuffix(body, "*") && !strings.HasSuffix(body, `\*`)
	if trail {
		body = body[:len(body)-1]
	}
	if strings.ContainsAny(body, `*?[\`) {
		return pattern{glob, p}
	}
	switch {
	case lead && trail:
		return pattern{infix, body}
	case lead:
		return pattern{suffix, body}
	case trail:
		return pattern{prefix, body}
	}
	return pattern{exact, body}
}

// Match reports whether name matches one of the patterns.
func (s *Set) Match(name string) bool {
	if s == nil {
		return false
	}
	for _, p := range s.pats {
		var ok bool
		switch p.kind {
		case exact:
			ok = name == p.lit
		case suffix:
			ok = strings.HasSuffix(name, p.lit) && !strings.Contains(name, "/")
		case prefix:
			ok = strings.HasPrefix(name, p.lit) && !strings.Contains(name, "/")
		case infix:
			ok = strings.Contains(name, p.lit) && !strings.Contains(name, "/")
		default:
			ok, _ = path.Match(p.lit, name)
		}
		if ok {
			return true
		}
	}
	return false
}
