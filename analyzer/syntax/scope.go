package syntax

import "iter"

// OwnScope yields the nodes of function def's body in preorder, without
// entering nested functions, lambdas and classes: their names are another
// scope's. Walks over one function's own code (the rules', the facts'
// predicate reader) share it.
func (t *Tree) OwnScope(def NodeID) iter.Seq[NodeID] {
	return func(yield func(NodeID) bool) {
		body := t.Field(def, FBody)
		if body == NoNode {
			return
		}
		end := t.SubtreeEnd(body)
		for n := body; n < end; n++ {
			switch t.Kind(n) {
			case FunctionDefinition, Lambda, ClassDefinition:
				n = t.SubtreeEnd(n) - 1
				continue
			}
			if !yield(n) {
				return
			}
		}
	}
}
