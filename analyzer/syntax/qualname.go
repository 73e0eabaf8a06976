package syntax

import (
	"slices"
	"strings"
)

// QualName is the qualified name of the innermost function enclosing n
// (n itself excluded), like Python's __qualname__ without "<locals>":
// "Class.method", "outer.inner". It is empty at module level and in a class
// body outside any method. Lambdas have no name and are skipped.
func QualName(t *Tree, n NodeID) string {
	fn := t.Ancestor(n, FunctionDefinition)
	if fn == NoNode {
		return ""
	}
	return DefQualName(t, fn)
}

// DefQualName is the qualified name of a function or class definition.
func DefQualName(t *Tree, def NodeID) string {
	var parts []string
	for p := def; p != NoNode; p = t.Parent(p) {
		if k := t.Kind(p); k == FunctionDefinition || k == ClassDefinition {
			if name := t.Field(p, FName); name != NoNode {
				parts = append(parts, t.Text(name))
			}
		}
	}
	slices.Reverse(parts)
	return strings.Join(parts, ".")
}
