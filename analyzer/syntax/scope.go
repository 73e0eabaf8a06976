package syntax

import "iter"

// OwnScope yields the nodes of function def's body (or of any node with a
// body field: a loop, a with) in preorder, without entering nested
// functions, lambdas and classes: their names are another scope's. Walks over one function's own code (the rules', the facts'
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

// IsLoad reports whether identifier n is read, not bound, as a plain name:
// not the attribute part of `x.name`, a keyword of a call, a parameter, a
// target of an assignment, a loop, a pattern, `global` or `nonlocal`.
func (t *Tree) IsLoad(n NodeID) bool {
	p := t.Parent(n)
	if p == NoNode {
		return true
	}
	switch t.Kind(p) {
	case Attribute:
		return t.FieldOf(n) == FObject
	case KeywordArgument, DefaultParameter, TypedDefaultParameter:
		return t.FieldOf(n) == FValue
	case Assignment, AugmentedAssignment:
		return t.FieldOf(n) != FLeft
	case NamedExpression:
		return t.FieldOf(n) != FName
	case Parameters, LambdaParameters, TypedParameter,
		ListSplatPattern, DictionarySplatPattern, GlobalStatement,
		NonlocalStatement, PatternList, TuplePattern, ListPattern:
		return false
	case ForStatement, ForInClause:
		return t.FieldOf(n) != FLeft
	}
	return true
}
