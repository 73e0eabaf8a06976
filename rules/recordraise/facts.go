package recordraise

import (
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
)

// conditionFacts are the site's raising condition as facts, in the raising
// function's names, with the aliases holding at the raise applied (`local
// = self.descs; if not local: raise` gives `self.descs` empty too).
func conditionFacts(t *syntax.Tree, s records.Site, atRaise []facts.Fact) []facts.Fact {
	var out []facts.Fact
	for _, c := range s.Conds {
		out = append(out, facts.TestFacts(t, c.Node, c.Value)...)
	}
	n := len(out)
	for _, a := range atRaise {
		if a.Kind != facts.Alias {
			continue
		}
		for _, f := range out[:n] {
			for _, pair := range [][2]facts.Path{{a.Path, a.Other}, {a.Other, a.Path}} {
				if g, ok := f.Path.Rebase(pair[0], pair[1]); ok {
					h := f
					h.Path = g
					out = append(out, h)
				}
			}
		}
	}
	return dedupe(out)
}

func dedupe(fs []facts.Fact) []facts.Fact {
	seen := map[facts.Fact]bool{}
	var out []facts.Fact
	for _, f := range fs {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// describe renders a fact for a message.
func describe(f facts.Fact) string {
	switch f.Kind {
	case facts.IsNone:
		return "`" + string(f.Path) + "` is None"
	case facts.NotNone:
		return "`" + string(f.Path) + "` is not None"
	case facts.Truthy:
		return "`" + string(f.Path) + "` is non-empty"
	case facts.Falsy:
		return "`" + string(f.Path) + "` is empty or None"
	case facts.In:
		return "`" + string(f.Key) + "` is in `" + string(f.Path) + "`"
	case facts.NotIn:
		return "`" + string(f.Key) + "` is not in `" + string(f.Path) + "`"
	case facts.IsInstance:
		return "`" + string(f.Path) + "` is a " + string(f.Other)
	case facts.NotInstance:
		return "`" + string(f.Path) + "` is not a " + string(f.Other)
	}
	return f.String()
}
