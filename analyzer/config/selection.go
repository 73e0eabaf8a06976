package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer"
)

// Selection is one layer of rule selection, like ruff's: the config file
// gives one, the command line another, applied in that order.
type Selection struct {
	// Select, when non-nil, replaces the rules enabled so far (starting
	// from the default set) with these. nil keeps them.
	Select []string
	// ExtendSelect adds rules to whatever is enabled.
	ExtendSelect []string
	// Ignore removes rules.
	Ignore []string
}

// A selector is a rule ID (SGL001), a rule name (kebab-case), an ID prefix
// (SGL, SGL0, SGL00) or ALL.
var prefixSelector = regexp.MustCompile(`^SGL[0-9]{0,2}$`)

// matched is what one selector stands for.
type matched struct {
	rules       []*analyzer.Rule
	specificity int  // more specific selectors override less specific ones
	explicit    bool // names one rule exactly, so DefaultOff rules qualify
}

// match resolves a selector against the registered rules.
func match(sel string, all []*analyzer.Rule) (matched, error) {
	for _, r := range all {
		if sel == r.ID || sel == r.Name {
			return matched{rules: []*analyzer.Rule{r}, specificity: len(r.ID), explicit: true}, nil
		}
	}
	var m matched
	switch {
	case sel == "ALL":
		m.rules = all
	case prefixSelector.MatchString(sel):
		m.specificity = len(sel)
		for _, r := range all {
			if strings.HasPrefix(r.ID, sel) {
				m.rules = append(m.rules, r)
			}
		}
	}
	if len(m.rules) == 0 {
		return m, fmt.Errorf("unknown rule selector %q%s", sel, didYouMean(sel, selectorWords(all)))
	}
	return m, nil
}

// selectorWords are the candidates for "did you mean": IDs and names.
func selectorWords(all []*analyzer.Rule) []string {
	var words []string
	for _, r := range all {
		words = append(words, r.ID, r.Name)
	}
	return words
}

// CheckSelector reports whether sel names at least one rule.
func CheckSelector(sel string, all []*analyzer.Rule) error {
	_, err := match(sel, all)
	return err
}

// SelectRules returns the enabled rules, sorted by ID, after applying the
// layers in order to the default set (every rule not marked DefaultOff).
//
// Within a layer, selectors apply from least to most specific (ALL, then
// SGL, SGL0, ... then full IDs and names); at equal specificity an ignore
// beats a select, so select=["SGL"], ignore=["SGL001"] disables SGL001 while
// select=["SGL001"], ignore=["SGL"] keeps it. A prefix or ALL never enables
// a DefaultOff rule; only its exact ID or name does. Ignores apply to every
// rule they match.
func SelectRules(all []*analyzer.Rule, layers ...Selection) ([]*analyzer.Rule, error) {
	enabled := map[*analyzer.Rule]bool{}
	for _, r := range all {
		enabled[r] = !r.DefaultOff
	}
	for _, l := range layers {
		type step struct {
			m      matched
			enable bool
		}
		var steps []step
		add := func(sels []string, enable bool) error {
			for _, s := range sels {
				m, err := match(s, all)
				if err != nil {
					return err
				}
				steps = append(steps, step{m, enable})
			}
			return nil
		}
		if l.Select != nil {
			clear(enabled)
		}
		if err := add(l.Select, true); err != nil {
			return nil, err
		}
		if err := add(l.ExtendSelect, true); err != nil {
			return nil, err
		}
		if err := add(l.Ignore, false); err != nil {
			return nil, err
		}
		// Stable sort: by specificity, selects before ignores.
		slices.SortStableFunc(steps, func(a, b step) int {
			if a.m.specificity != b.m.specificity {
				return a.m.specificity - b.m.specificity
			}
			switch {
			case a.enable == b.enable:
				return 0
			case a.enable:
				return -1
			}
			return 1
		})
		for _, s := range steps {
			for _, r := range s.m.rules {
				if s.enable && r.DefaultOff && !s.m.explicit {
					continue
				}
				enabled[r] = s.enable
			}
		}
	}
	var out []*analyzer.Rule
	for _, r := range all {
		if enabled[r] {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *analyzer.Rule) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// expand returns the IDs of every rule sel matches (DefaultOff included:
// used for ignores).
func expand(sel string, all []*analyzer.Rule) ([]string, error) {
	m, err := match(sel, all)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(m.rules))
	for i, r := range m.rules {
		ids[i] = r.ID
	}
	return ids, nil
}
