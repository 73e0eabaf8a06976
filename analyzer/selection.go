package analyzer

import (
	"fmt"
	"strings"
)

// Selection chooses the rules to run, like ruff's select/ignore. Each entry
// is a rule ID ("SGL001"), an ID prefix ("SGL0", "SGL"), a rule name
// ("syntax-error") or "ALL"; IDs and prefixes are case-insensitive.
type Selection struct {
	Select []string // empty: the default rules
	Ignore []string
}

// An UnknownSelectorError names a selector that matches no rule.
type UnknownSelectorError struct {
	Selector string
	Option   string // "select" or "ignore"
}

func (e *UnknownSelectorError) Error() string {
	return fmt.Sprintf("--%s %s: no rule has this ID, prefix or name", e.Option, e.Selector)
}

// SelectRules returns the rules of all (in order) that sel enables. For each
// rule the most specific matching entry decides (a full ID or a name beats
// a prefix, a longer prefix beats a shorter one); on a tie, ignore wins.
// A rule no entry matches runs if Select is empty and it is not DefaultOff.
// DefaultOff rules run only when selected by full ID or name.
func SelectRules(all []*Rule, sel Selection) ([]*Rule, error) {
	for _, list := range []struct {
		option string
		items  []string
	}{{"select", sel.Select}, {"ignore", sel.Ignore}} {
		for _, s := range list.items {
			if !matchesAny(all, s) {
				return nil, &UnknownSelectorError{Selector: s, Option: list.option}
			}
		}
	}
	var out []*Rule
	for _, r := range all {
		on := specificity(r, sel.Select)
		off := specificity(r, sel.Ignore)
		var enabled bool
		switch {
		case off >= 0 && off >= on:
			enabled = false
		case on >= 0:
			enabled = !r.DefaultOff || on == exact
		default:
			enabled = len(sel.Select) == 0 && !r.DefaultOff
		}
		if enabled {
			out = append(out, r)
		}
	}
	return out, nil
}

// exact is the specificity of a full ID or a name: above any prefix.
const exact = 1 << 20

// specificity of the most specific entry of list matching r; -1 if none.
func specificity(r *Rule, list []string) int {
	best := -1
	for _, s := range list {
		best = max(best, match(r, s))
	}
	return best
}

// match returns how specifically selector s names r, or -1.
func match(r *Rule, s string) int {
	switch {
	case strings.EqualFold(s, r.ID) || s == r.Name:
		return exact
	case s == "ALL":
		return 0
	case s != "" && len(s) < len(r.ID) && strings.EqualFold(r.ID[:len(s)], s):
		return len(s)
	}
	return -1
}

func matchesAny(all []*Rule, s string) bool {
	for _, r := range all {
		if match(r, s) >= 0 {
			return true
		}
	}
	return false
}
