package sendpath

import (
	"iter"

	"github.com/sglint/sglint/analyzer/syntax"
)

// BodyNodes yields the nodes of function def's body in preorder, without
// entering nested functions, lambdas and classes: their names are another
// scope's. The rules' walks over one function share it.
func BodyNodes(t *syntax.Tree, def syntax.NodeID) iter.Seq[syntax.NodeID] {
	return func(yield func(syntax.NodeID) bool) {
		body := t.Field(def, syntax.FBody)
		if body == syntax.NoNode {
			return
		}
		end := t.SubtreeEnd(body)
		for n := body; n < end; n++ {
			switch t.Kind(n) {
			case syntax.FunctionDefinition, syntax.Lambda, syntax.ClassDefinition:
				n = t.SubtreeEnd(n) - 1
				continue
			}
			if !yield(n) {
				return
			}
		}
	}
}
