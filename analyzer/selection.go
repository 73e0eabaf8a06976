package analyzer

import (
	"fmt"
	"strings"
)

// Selection chooses the rules to run, like ruff's select/ignore. Each entry
// is a rule ID ("SGL001"), an ID prefix ("SGL0", "SGL"), a rule name
// ("syntax-error") or "ALL"; IDs and prefixes are case-insensitive.
type Selection struct {
	Select       []string // empty: keep the rules enabled so far (at first, the default rules)
	ExtendSelect []string // enable these on top of what is enabled
	Ignore       []string
}

// An UnknownSelectorError names a selector that matches no rule.
type UnknownSelectorError struct {
	Selector string
	Option   string // "select", "extend-select" or "ignore"; "" outside the command line
}

func (e *UnknownSelectorError) Error() string {
	if e.Option == "" {
		return fmt.Sprintf("%s: no rule has this ID, prefix or name", e.Selector)
	}
	return fmt.Sprintf("--%s %s: no rule has this ID, prefix or name", e.Option, e.Selector)
}

// SelectRules returns the rules of all (in order) that sel enables. For each
// rule the most specific matching entry decides (a full ID or a name beats
// a prefix, a longer prefix beats a shorter one); on a tie, ignore wins.
// A rule no entry matches runs if Select is empty and it is not DefaultOff.
// DefaultOff rules run only when selected by full ID or name.
func SelectRules(all []*Rule, sel Selection) ([]*Rule, error) {
	return SelectLayers(all, sel)
}

// SelectLayers applies selections in order, like ruff applies the config
// file's and then the command line's: each layer decides the rules its
// entries match (as in SelectRules; Select and ExtendSelect entries count
// alike), a layer with a non-empty Select disables every rule it does not
// match, and otherwise a rule keeps the state the previous layers gave it.
// A prefix or ALL in Select or ExtendSelect never enables a DefaultOff rule.
func SelectLayers(all []*Rule, layers ...Selection) ([]*Rule, error) {
	for _, sel := range layers {
		for _, list := range []struct {
			option string
			items  []string
		}{{"select", sel.Select}, {"extend-select", sel.ExtendSelect}, {"ignore", sel.Ignore}} {
			for _, s := range list.items {
				if !matchesAny(all, s) {
					return nil, &UnknownSelectorError{Selector: s, Option: list.option}
				}
			}
		}
	}
	enabled := make([]bool, len(all))
	for i, r := range all {
		enabled[i] = !r.DefaultOff
	}
	for _, sel := range layers {
		for i, r := range all {
			on := max(specificity(r, sel.Select), specificity(r, sel.ExtendSelect))
			if r.DefaultOff && on != exact {
				on = -1
			}
			off := specificity(r, sel.Ignore)
			switch {
			case off >= 0 && off >= on:
				enabled[i] = false
			case on >= 0:
				enabled[i] = true
			case len(sel.Select) > 0:
				enabled[i] = false
			}
		}
	}
	var out []*Rule
	for i, r := range all {
		if enabled[i] {
			out = append(out, r)
		}
	}
	return out, nil
}

// MatchSelector returns the rules of all that selector s names, DefaultOff
// ones included (for ignores), or an error if it names none.
func MatchSelector(all []*Rule, s string) ([]*Rule, error) {
	var out []*Rule
	for _, r := range all {
		if match(r, s) >= 0 {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, &UnknownSelectorError{Selector: s}
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
