package peerpublish

import (
	"strings"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/syntax"
)

// An object is half-built when a field it needs is still unset, or still
// holds the None that stands for "not yet". A write after the store that
// only changes what the function had already set to a value is an update,
// not initialisation: `req.failed = False` before the store and
// `req.failed = True` on an error path after it.

// setBefore lists the attributes of obj that function def assigns a value
// other than None (`obj.failed = False`, `obj.slots = []`) before node
// at, in source order: those the object already has when it is stored.
func setBefore(t *syntax.Tree, def syntax.NodeID, obj string, at syntax.NodeID) map[string]bool {
	set := map[string]bool{}
	walkScope(t, def, func(n syntax.NodeID) {
		if t.Kind(n) != syntax.Assignment {
			return
		}
		for _, target := range targets(t, t.Field(n, syntax.FLeft)) {
			p, ok := facts.AttrPathOf(t, target)
			if !ok {
				continue
			}
			rest, ok := under(p, obj)
			if !ok || rest == "" {
				continue
			}
			if n < at && !strings.Contains(rest, ".") && t.Kind(t.Unparen(t.Field(n, syntax.FRight))) != syntax.None {
				set[rest] = true
			}
		}
	})
	return set
}

// update reports a step that writes only attributes obj already had,
// set to a value, when it was stored.
func update(s step, set map[string]bool) bool {
	if s.fill || len(s.writes) == 0 {
		return false
	}
	for _, w := range s.writes {
		if !set[w] {
			return false // a new attribute, or one inside another object
		}
	}
	return true
}

// joinPaths puts written paths under prefix: "receiver" and
// ["state", ""] give ["receiver.state", "receiver"].
func joinPaths(prefix string, paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		switch {
		case prefix == "":
			out = append(out, p)
		case p == "":
			out = append(out, prefix)
		default:
			out = append(out, prefix+"."+p)
		}
	}
	return out
}
