// Package facts computes what is known about access paths (`x`,
// `self.a.b`, `info.kind`, `table[key]`) at every node of a function: that
// a value is or is not None, is empty or non-empty, contains a key, is an
// instance of a class. It is a forward must-analysis over a cfg.Graph, in
// the spirit of go/analysis/passes/nilness: facts are learnt on branch
// edges (`if x is None: raise` leaves `x is not None` on the way out),
// from asserts, assignments and waits, are intersected where paths join,
// and are iterated to a fixpoint around loops.
//
// Choices, documented because rules depend on them:
//   - Reassigning a path kills its facts and those of every path that
//     extends it (`self.a = ...` kills facts on `self.a.b` and
//     `t[self.a]`).
//   - A call that mutates a container in place (`x.clear()`, `x.pop()`,
//     `x.append(v)`, `del x[k]`, `x[k] = v`, `x += ...`) kills its
//     emptiness and membership facts (and then learns what it can: after
//     `x.append(v)` x is non-empty, after `t[k] = v` k is in t).
//   - Passing a value to a function, or calling an unknown method on it,
//     does NOT kill its facts: otherwise a guard followed by any call
//     (logging!) would be forgotten, and rules would drown in false
//     positives. Options.CallKills lets a caller that knows better (a
//     function summary) say which paths a call rebinds.
//   - A local alias (`d = self.descs`) shares facts with the aliased path,
//     both ways, while neither is reassigned.
//   - Implicit exceptions are modelled inside try statements only (see
//     package cfg); facts at a handler are those that hold at every point
//     of the try body.
//   - A comprehension is one node of the graph; a query inside it also
//     applies the clauses that run before the queried node (its `if`
//     tests, its loop variables shadowing outer facts).
//   - Concurrency is not modelled: another thread may change `self.x`
//     between a check and a use; facts say what this function's own code
//     guarantees.
package facts

import "fmt"

// Kind is the shape of a fact.
type Kind uint8

const (
	_           Kind = iota
	IsNone           // Path is None
	NotNone          // Path is not None
	Truthy           // Path is true: for a container, non-empty (implies NotNone)
	Falsy            // Path is false: for a container, empty (or None)
	In               // Key in Path (implies Path non-empty)
	NotIn            // Key not in Path
	IsInstance       // isinstance(Path, Other); Other is the class expression's text
	NotInstance      // not isinstance(Path, Other)
	Alias            // Path and Other name the same object (`Path = Other` ran)
	GetOf            // Path = Other.get(Key) ran: Path is not None only if Key in Other
	LenOf            // Path = f(len(Other)) ran, f(0) == 0 (`len(x) // k`): Path is non-zero only if Other is non-empty
	NonZero          // Path != 0
	KeysOf           // every element of Path is a key of Other (`ks = [k for k in t if ...]`)
	SameLen          // len(Path) == len(Other) (`len(a) == len(b)` held, or `a = x[:len(b)]` ran)
	DiffLen          // len(Path) != len(Other)
)

var kindNames = [...]string{
	IsNone: "IsNone", NotNone: "NotNone", Truthy: "Truthy", Falsy: "Falsy",
	In: "In", NotIn: "NotIn", IsInstance: "IsInstance", NotInstance: "NotInstance",
	Alias: "Alias", GetOf: "GetOf", LenOf: "LenOf", NonZero: "NonZero",
	KeysOf: "KeysOf", SameLen: "SameLen", DiffLen: "DiffLen",
}

// Local reports whether facts of kind k tie a value to how this function
// computed it (an alias, a .get, a length, a list of keys): they mean
// nothing to a caller or a callee, so they are neither exported nor
// translated, and are no checks.
func (k Kind) Local() bool {
	switch k {
	case Alias, GetOf, LenOf, KeysOf:
		return true
	}
	return false
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Fact is one fact about access paths. Which fields are set depends on
// Kind: Path always; Key for In, NotIn and GetOf; Other for IsInstance,
// NotInstance (the class), Alias (the aliased path), GetOf and KeysOf (the
// table), LenOf (the container measured), SameLen and DiffLen (the other
// container; the two paths in sorted order).
// Facts are comparable values.
type Fact struct {
	Kind  Kind
	Path  Path
	Key   Path
	Other Path
}

func (f Fact) String() string {
	switch f.Kind {
	case IsNone:
		return string(f.Path) + " is None"
	case NotNone:
		return string(f.Path) + " is not None"
	case Truthy:
		return string(f.Path) + " non-empty"
	case Falsy:
		return string(f.Path) + " empty"
	case In:
		return string(f.Key) + " in " + string(f.Path)
	case NotIn:
		return string(f.Key) + " not in " + string(f.Path)
	case IsInstance:
		return "isinstance(" + string(f.Path) + ", " + string(f.Other) + ")"
	case NotInstance:
		return "not isinstance(" + string(f.Path) + ", " + string(f.Other) + ")"
	case Alias:
		return string(f.Path) + " aliases " + string(f.Other)
	case GetOf:
		return string(f.Path) + " = " + string(f.Other) + ".get(" + string(f.Key) + ")"
	case LenOf:
		return string(f.Path) + " = f(len(" + string(f.Other) + "))"
	case NonZero:
		return string(f.Path) + " != 0"
	case KeysOf:
		return string(f.Path) + " holds keys of " + string(f.Other)
	case SameLen:
		return "len(" + string(f.Path) + ") == len(" + string(f.Other) + ")"
	case DiffLen:
		return "len(" + string(f.Path) + ") != len(" + string(f.Other) + ")"
	}
	return f.Kind.String() + "(" + string(f.Path) + ")"
}

// Convenience constructors for the common queries.

func NotNoneFact(p Path) Fact  { return Fact{Kind: NotNone, Path: p} }
func NonEmptyFact(p Path) Fact { return Fact{Kind: Truthy, Path: p} }
func InFact(table, key Path) Fact {
	return Fact{Kind: In, Path: table, Key: key}
}
