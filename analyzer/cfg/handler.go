package cfg

import (
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Catch is an except clause that catches an exception raised at some node.
type Catch struct {
	Try    syntax.NodeID // the try_statement
	Clause syntax.NodeID // the except_clause (or except* clause)
	// RaisesAlways: every path through the clause's body ends in a raise (a
	// bare re-raise or a new exception, or a failing assert), so the failure
	// leaves the handler anyway.
	RaisesAlways bool
	// RaisesSome: some path through the body raises.
	RaisesSome bool
	// ExitsAlways: every path through the body ends the process
	// (ExitsProcess); RaisesAlways is then true as well.
	ExitsAlways bool
	// LeavesAlways: every path through the body raises, ends the process
	// or returns: after it the function is left, and a loop around the try
	// in that function does not go on.
	LeavesAlways bool
	// BreaksAlways: every path raises, ends the process, returns or
	// breaks out of the innermost loop around the try (LeavesAlways, or
	// some path breaks).
	BreaksAlways bool
}

// Handler returns the innermost except clause that catches an exception of
// class exc raised while n is evaluated: n lies in the body of a try (not in
// its handlers, else or finally) whose first matching clause names exc, one
// of its bases, or nothing (bare except). The search stops at n's function.
//
// exc is a class name; a dotted name is reduced to its last part, as are the
// clauses' names (`except requests.ConnectionError`). Bases are known for
// Python's built-in exceptions; any other class is assumed to derive from
// Exception.
func Handler(t *syntax.Tree, n syntax.NodeID, exc string) (Catch, bool) {
	var c Catch
	found := false
	walkHandlers(t, n, exc, func(x Catch) bool {
		c, found = x, true
		return false
	})
	return c, found
}

// Handlers returns every enclosing except clause of n's function that
// catches exc, innermost first; an outer one matters when an inner one
// re-raises.
func Handlers(t *syntax.Tree, n syntax.NodeID, exc string) []Catch {
	var cs []Catch
	walkHandlers(t, n, exc, func(x Catch) bool {
		cs = append(cs, x)
		return true
	})
	return cs
}

func walkHandlers(t *syntax.Tree, n syntax.NodeID, exc string, yield func(Catch) bool) {
	if n < 0 || int(n) >= t.Len() {
		return
	}
	exc = pyname.Last(exc)
	for m := n; ; {
		p := t.Parent(m)
		if p == syntax.NoNode {
			return
		}
		k := t.Kind(p)
		if isScope(k) && t.FieldOf(m) == syntax.FBody {
			return
		}
		if k == syntax.TryStatement && t.FieldOf(m) == syntax.FBody {
			for c := range t.NamedChildren(p) {
				if ck := t.Kind(c); (ck != syntax.ExceptClause && ck != syntax.ExceptGroupClause) || t.IsError(c) {
					continue
				}
				if !catches(t, c, exc) {
					continue
				}
				o := outcomeOf(t, blockOf(t, c))
				x := Catch{Try: p, Clause: c, RaisesAlways: o != 0 && o&^(raises|exits) == 0,
					RaisesSome: o&(raises|exits) != 0, ExitsAlways: o == exits,
					LeavesAlways: o != 0 && o&^(raises|exits|returns) == 0,
					BreaksAlways: o != 0 && o&^(raises|exits|returns|breaks) == 0}
				if !yield(x) {
					return
				}
				break // the first matching clause handles it
			}
		}
		m = p
	}
}

func blockOf(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for c := range t.NamedChildren(n) {
		if t.Kind(c) == syntax.Block {
			return c
		}
	}
	return syntax.NoNode
}

// catches reports whether except clause c catches class exc.
func catches(t *syntax.Tree, c syntax.NodeID, exc string) bool {
	typ, _ := exceptParts(t, c)
	if typ == syntax.NoNode {
		return true // bare except
	}
	found := false
	var visit func(n syntax.NodeID)
	visit = func(n syntax.NodeID) {
		switch t.Kind(n) {
		case syntax.Tuple, syntax.ParenthesizedExpression, syntax.ExpressionList, syntax.ListSplat:
			for x := range t.NamedChildren(n) {
				visit(x)
			}
		case syntax.Identifier:
			found = found || derives(exc, t.Text(n))
		case syntax.Attribute:
			if a := t.Field(n, syntax.FAttribute); a != syntax.NoNode {
				found = found || derives(exc, t.Text(a))
			}
		}
	}
	visit(typ)
	return found
}

// derives reports whether class exc is base or derives from it.
func derives(exc, base string) bool {
	for c := exc; c != ""; {
		if c == base {
			return true
		}
		p, known := builtinBases[c]
		if !known {
			p = "Exception" // assumption for classes we cannot see
		}
		c = p
	}
	return false
}

// builtinBases maps Python's built-in exception classes to their bases.
var builtinBases = map[string]string{
	"BaseException":             "",
	"BaseExceptionGroup":        "BaseException",
	"GeneratorExit":             "BaseException",
	"KeyboardInterrupt":         "BaseException",
	"SystemExit":                "BaseException",
	"Exception":                 "BaseException",
	"ArithmeticError":           "Exception",
	"FloatingPointError":        "ArithmeticError",
	"OverflowError":             "ArithmeticError",
	"ZeroDivisionError":         "ArithmeticError",
	"AssertionError":            "Exception",
	"AttributeError":            "Exception",
	"BufferError":               "Exception",
	"EOFError":                  "Exception",
	"ExceptionGroup":            "BaseExceptionGroup",
	"ImportError":               "Exception",
	"ModuleNotFoundError":       "ImportError",
	"LookupError":               "Exception",
	"IndexError":                "LookupError",
	"KeyError":                  "LookupError",
	"MemoryError":               "Exception",
	"NameError":                 "Exception",
	"UnboundLocalError":         "NameError",
	"OSError":                   "Exception",
	"IOError":                   "Exception", // alias of OSError; its bases are what matter
	"EnvironmentError":          "Exception",
	"BlockingIOError":           "OSError",
	"ChildProcessError":         "OSError",
	"ConnectionError":           "OSError",
	"BrokenPipeError":           "ConnectionError",
	"ConnectionAbortedError":    "ConnectionError",
	"ConnectionRefusedError":    "ConnectionError",
	"ConnectionResetError":      "ConnectionError",
	"FileExistsError":           "OSError",
	"FileNotFoundError":         "OSError",
	"InterruptedError":          "OSError",
	"IsADirectoryError":         "OSError",
	"NotADirectoryError":        "OSError",
	"PermissionError":           "OSError",
	"ProcessLookupError":        "OSError",
	"TimeoutError":              "OSError",
	"ReferenceError":            "Exception",
	"RuntimeError":              "Exception",
	"NotImplementedError":       "RuntimeError",
	"RecursionError":            "RuntimeError",
	"StopAsyncIteration":        "Exception",
	"StopIteration":             "Exception",
	"SyntaxError":               "Exception",
	"IndentationError":          "SyntaxError",
	"TabError":                  "IndentationError",
	"SystemError":               "Exception",
	"TypeError":                 "Exception",
	"ValueError":                "Exception",
	"UnicodeError":              "ValueError",
	"UnicodeDecodeError":        "UnicodeError",
	"UnicodeEncodeError":        "UnicodeError",
	"UnicodeTranslateError":     "UnicodeError",
	"Warning":                   "Exception",
	"DeprecationWarning":        "Warning",
	"PendingDeprecationWarning": "Warning",
	"RuntimeWarning":            "Warning",
	"UserWarning":               "Warning",
}

// Outcomes of running statements, as a set.
type outcome uint8

const (
	falls     outcome = 1 << iota // reaches the next statement
	raises                        // an explicit raise or failing assert
	returns                       // return
	breaks                        // break out of the innermost loop
	continues                     // continue the innermost loop
	exits                         // a call that ends the process (ExitsProcess)
)

// outcomeOf is the set of ways the statements of block can end. It is
// syntactic: implicit exceptions are not outcomes, loops and ifs are
// assumed to take any branch whose test is not a constant.
func outcomeOf(t *syntax.Tree, block syntax.NodeID) outcome {
	if block == syntax.NoNode {
		return falls
	}
	var acc outcome
	for s := range t.NamedChildren(block) {
		if t.IsError(s) {
			continue
		}
		o := stmtOutcome(t, s)
		acc |= o &^ falls
		if o&falls == 0 {
			return acc
		}
	}
	return acc | falls
}

func stmtOutcome(t *syntax.Tree, s syntax.NodeID) outcome {
	if ExitsProcess(t, s) {
		return exits
	}
	switch t.Kind(s) {
	case syntax.RaiseStatement:
		return raises
	case syntax.ReturnStatement:
		return returns
	case syntax.BreakStatement:
		return breaks
	case syntax.ContinueStatement:
		return continues
	case syntax.AssertStatement:
		if v, ok := constTruth(t, t.NamedChild(s, 0)); ok {
			if v {
				return falls
			}
			return raises
		}
		return falls | raises
	case syntax.IfStatement:
		var o outcome
		hasElse := false
		for c := range t.NamedChildren(s) {
			switch t.Kind(c) {
			case syntax.Block:
				o |= outcomeOf(t, c)
			case syntax.ElifClause:
				o |= outcomeOf(t, t.Field(c, syntax.FConsequence))
			case syntax.ElseClause:
				o |= outcomeOf(t, t.Field(c, syntax.FBody))
				hasElse = true
			}
		}
		if !hasElse {
			o |= falls
		}
		return o
	case syntax.WhileStatement, syntax.ForStatement:
		body := outcomeOf(t, t.Field(s, syntax.FBody))
		o := body & (raises | returns | exits)
		if body&breaks != 0 {
			o |= falls
		}
		exhausts := true
		if t.Kind(s) == syntax.WhileStatement {
			if v, ok := constTruth(t, t.Field(s, syntax.FCondition)); ok && v {
				exhausts = false
			}
		}
		if exhausts {
			if alt := t.Field(s, syntax.FAlternative); alt != syntax.NoNode {
				o |= outcomeOf(t, t.Field(alt, syntax.FBody))
			} else {
				o |= falls
			}
		}
		return o
	case syntax.TryStatement:
		o := outcomeOf(t, t.Field(s, syntax.FBody))
		var fin syntax.NodeID = syntax.NoNode
		for c := range t.NamedChildren(s) {
			switch t.Kind(c) {
			case syntax.ExceptClause, syntax.ExceptGroupClause:
				if typ, _ := exceptParts(t, c); catchesAll(t, typ) {
					o &^= raises
				}
				o |= outcomeOf(t, blockOf(t, c))
			case syntax.ElseClause:
				if o&falls != 0 {
					o = o&^falls | outcomeOf(t, t.Field(c, syntax.FBody))
				}
			case syntax.FinallyClause:
				fin = c
			}
		}
		if fin != syntax.NoNode {
			f := outcomeOf(t, blockOf(t, fin))
			if f&falls == 0 {
				return f
			}
			o |= f &^ falls
		}
		return o
	case syntax.WithStatement:
		return outcomeOf(t, t.Field(s, syntax.FBody))
	case syntax.MatchStatement:
		o := falls
		if body := t.Field(s, syntax.FBody); body != syntax.NoNode {
			for c := range t.NamedChildren(body) {
				if t.Kind(c) == syntax.CaseClause {
					o |= outcomeOf(t, t.Field(c, syntax.FConsequence))
				}
			}
		}
		return o
	}
	return falls
}
