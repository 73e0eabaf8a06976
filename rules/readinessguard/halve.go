package readinessguard

import (
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/syntax"
)

// A length divided down (`layers = len(descs) // 2`) is harmful only where
// the zero it gives for empty state is used: a loop over range(layers)
// runs zero times. Code often tests the result against zero first
// (`if layers == 0: return`), which is a check, not a use; and a value
// named first is used where the name is read.

// arithmeticTop climbs from n through the arithmetic that keeps a zero
// zero (products, and quotients and remainders of n: the engine's
// facts read the same shapes), parentheses and int(...), to the whole
// expression.
func arithmeticTop(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for {
		p := t.Parent(n)
		if p == syntax.NoNode {
			return n
		}
		switch t.Kind(p) {
		case syntax.ParenthesizedExpression:
			n = p
		case syntax.BinaryOperator:
			switch t.Kind(t.Field(p, syntax.FOperator)) {
			case syntax.OpStar:
			case syntax.OpSlash, syntax.OpFloorDiv, syntax.OpPercent:
				if t.FieldOf(n) != syntax.FLeft {
					return n
				}
			default:
				return n
			}
			n = p
		case syntax.ArgumentList:
			call := t.Parent(p)
			fn := t.Field(call, syntax.FFunction)
			if t.Kind(call) != syntax.Call || fn == syntax.NoNode || !t.TextIs(fn, "int") || t.NamedChild(p, 1) != syntax.NoNode {
				return n
			}
			n = call
		default:
			return n
		}
	}
}

// zeroTested reports an expression whose value is only tested: compared
// with an integer, tested for truth, or matched on.
func zeroTested(t *syntax.Tree, e syntax.NodeID) bool {
	p := t.Parent(e)
	if p == syntax.NoNode {
		return false
	}
	switch t.Kind(p) {
	case syntax.ComparisonOperator:
		for c := range t.NamedChildren(p) {
			if c != e && t.Kind(t.Unparen(c)) == syntax.Integer {
				return true
			}
		}
	case syntax.NotOperator:
		return true
	case syntax.IfStatement, syntax.ElifClause, syntax.WhileStatement:
		return t.FieldOf(e) == syntax.FCondition
	case syntax.MatchStatement:
		return t.FieldOf(e) == syntax.FSubject
	}
	return false
}

// namedBy returns the name an expression is bound to as a whole
// (`n = e`, `(n := e)`), "" otherwise.
func namedBy(t *syntax.Tree, e syntax.NodeID) string {
	p := t.Parent(e)
	if p == syntax.NoNode {
		return ""
	}
	var target syntax.NodeID
	switch {
	case t.Kind(p) == syntax.Assignment && t.FieldOf(e) == syntax.FRight:
		target = t.Field(p, syntax.FLeft)
	case t.Kind(p) == syntax.NamedExpression && t.FieldOf(e) == syntax.FValue:
		target = t.Field(p, syntax.FName)
	default:
		return ""
	}
	if target == syntax.NoNode || t.Kind(target) != syntax.Identifier {
		return ""
	}
	return t.Text(target)
}

// halvedNameGuarded: the divided length at use u was bound to name, and at
// every later read of name that is not itself a zero test the name is known
// not zero, or the state non-empty.
func halvedNameGuarded(t *syntax.Tree, def syntax.NodeID, r *facts.Result, u use, name string, cands []facts.Path) bool {
	for n := range t.OwnScope(def) {
		// Later reads only: u is in def's own scope (findUses).
		if n < u.Node || t.Kind(n) != syntax.Identifier {
			continue
		}
		if !t.TextIs(n, name) || !t.IsLoad(n) || zeroTested(t, n) || !r.Reachable(n) {
			continue
		}
		ok := r.Holds(n, facts.Fact{Kind: facts.NonZero, Path: facts.Path(name)}) ||
			r.Holds(n, facts.NonEmptyFact(facts.Path(name)))
		for _, c := range cands {
			ok = ok || r.Holds(n, facts.NonEmptyFact(c))
		}
		if !ok {
			return false
		}
	}
	return true
}
