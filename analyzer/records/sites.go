package records

import (
	"bytes"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer/syntax"
)

// Site is a statement that raises a record's error.
type Site struct {
	Record   *Record
	Stmt     syntax.NodeID // the raise_statement or assert_statement
	Class    syntax.NodeID // the raised class expression; NoNode for an assert
	Message  syntax.NodeID // the message expression as written
	Template Template
	// Conds is the syntactic raising condition: the statement runs when
	// every Cond's test takes its Value. It lists the tests of the if,
	// elif and else branches holding the statement in its function,
	// outermost first, and for an assert its own test (with Value false).
	Conds []Cond
	// Evidence is why the site matched beyond its message.
	Evidence Evidence
}

// Evidence is what, besides the message, ties a site to its record.
type Evidence struct {
	// Path is the number of trailing path components the file shares with
	// the record's filePath (Record.HintScore).
	Path int
	// Snippet is the number of the record's sourceCode lines found around
	// the site.
	Snippet int
	// Weak: the message has too little literal text to match on its own
	// (Record.Weak); the path or the snippet pinned it.
	Weak bool
}

// Pinned reports evidence enough to take a weak message: the file is the
// recorded one (its directory and name agree), or the code around the site
// holds three lines of the record's snippet.
func (e Evidence) Pinned() bool { return e.Path >= 2 || e.Snippet >= 3 }

// Cond is one test on the way to a raise.
type Cond struct {
	Node  syntax.NodeID
	Value bool
}

// IsAssert reports an assert site.
func (s *Site) IsAssert(t *syntax.Tree) bool { return t.Kind(s.Stmt) == syntax.AssertStatement }

// MayHold reports whether src can hold a site of the set's records: it
// contains the name of a class some record raises (the last part, as
// written after `raise`), or `assert` when a record is an AssertionError.
// A file without is skipped unparsed by a run that wants only sites.
func (s *Set) MayHold(src []byte) bool {
	if s.Len() == 0 {
		return false
	}
	for class := range s.byClass {
		word := class
		if class == "AssertionError" {
			word = "assert"
		}
		if bytes.Contains(src, []byte(word)) {
			return true
		}
	}
	return false
}

// Find returns the sites of the set's records in t, in source order; a
// statement that matches several records gives one site per record. It
// looks at raise and assert statements only, reading each message once,
// and only for statements raising a class some record names.
func (s *Set) Find(t *syntax.Tree) []Site { return s.FindIn(t, "") }

// FindIn is Find for the file at path (absolute or relative), which the
// sites' evidence compares with the records' filePath.
func (s *Set) FindIn(t *syntax.Tree, path string) []Site {
	if s.Len() == 0 || t == nil {
		return nil
	}
	var out []Site
	asserts := s.byClass["AssertionError"]
	var classes *fileClasses // read at the first raise: most files have none
	for i, n := 0, t.Len(); i < n; i++ {
		id := syntax.NodeID(i)
		switch t.Kind(id) {
		case syntax.RaiseStatement:
			if classes == nil {
				classes = s.classesOf(t)
			}
			out = s.raiseSites(t, id, path, classes, out)
		case syntax.AssertStatement:
			if len(asserts) > 0 {
				out = assertSites(t, id, asserts, path, out)
			}
		}
	}
	return out
}

func (s *Set) raiseSites(t *syntax.Tree, stmt syntax.NodeID, path string, classes *fileClasses, out []Site) []Site {
	exc := syntax.NoNode
	for c := range t.NamedChildren(stmt) {
		if t.FieldOf(c) != syntax.FCause {
			exc = c
			break
		}
	}
	exc = t.Unparen(exc)
	if t.Kind(exc) != syntax.Call || t.IsError(exc) {
		return out // `raise E` or a bare raise: no message to match
	}
	class := t.Field(exc, syntax.FFunction)
	name := className(t, class)
	recs := s.byClass[name]
	if len(recs) == 0 {
		recs = classes.subs[name]
	}
	if len(recs) == 0 {
		return out
	}
	msg, own := classes.strs[name]
	if !own {
		msg = firstPositional(t, t.Field(exc, syntax.FArguments))
	}
	if msg == syntax.NoNode {
		return out
	}
	return matchSites(t, stmt, class, msg, recs, path, out)
}

func assertSites(t *syntax.Tree, stmt syntax.NodeID, recs []*Record, path string, out []Site) []Site {
	test, msg := t.NamedChild(stmt, 0), t.NamedChild(stmt, 1)
	if test == syntax.NoNode || msg == syntax.NoNode {
		return out
	}
	return matchSites(t, stmt, syntax.NoNode, msg, recs, path, out)
}

func matchSites(t *syntax.Tree, stmt, class, msg syntax.NodeID, recs []*Record, path string, out []Site) []Site {
	tp, ok := TemplateOf(t, msg)
	if !ok {
		return out
	}
	var conds []Cond
	for _, r := range recs {
		if !r.MatchTemplate(tp) || r.Foreign(tp) {
			continue
		}
		ev := Evidence{Path: r.HintScore(path), Weak: r.Weak(tp)}
		if r.SourceCode != "" {
			ev.Snippet = r.SnippetScore(t.Src, t.Start(stmt).Line)
		}
		if ev.Weak && !ev.Pinned() {
			continue // `f"{ctx}: {err}"` matches almost any record on its own
		}
		if conds == nil {
			conds = Conditions(t, stmt)
		}
		out = append(out, Site{Record: r, Stmt: stmt, Class: class, Message: msg, Template: tp, Conds: conds, Evidence: ev})
	}
	return out
}

// fileClasses is what the classes a file defines say about its raises.
type fileClasses struct {
	// subs maps the exception classes the file defines that derive,
	// through classes it defines, from a class some record names, to those
	// records: `class RoomGoneError(TransferError)` raises TransferError's
	// records. Only the file's own classes are followed, so that a file's
	// sites depend on the file alone (the cache keeps them by its content).
	subs map[string][]*Record
	// strs maps the classes whose `__str__` returns a message it builds
	// (`return f"TransferError(room={self.room}): {self.reason}"`) to that
	// expression: what such an error prints is that message, whatever the
	// arguments of the raise (`raise TransferError(room, reason)`).
	strs map[string]syntax.NodeID
}

// classesOf reads t's class definitions once for both maps.
func (s *Set) classesOf(t *syntax.Tree) *fileClasses {
	fc := &fileClasses{strs: map[string]syntax.NodeID{}}
	bases := map[string][]string{}
	for i, n := 0, t.Len(); i < n; i++ {
		c := syntax.NodeID(i)
		if t.Kind(c) != syntax.ClassDefinition {
			continue
		}
		name := t.Text(t.Field(c, syntax.FName))
		for b := range t.NamedChildren(t.Field(c, syntax.FSuperclasses)) {
			if bn := className(t, b); bn != "" {
				bases[name] = append(bases[name], bn)
			}
		}
		if e := strMessage(t, c); e != syntax.NoNode {
			fc.strs[name] = e
		}
	}
	if len(bases) == 0 {
		return fc
	}
	fc.subs = map[string][]*Record{}
	var visit func(name string, seen map[string]bool) []*Record
	visit = func(name string, seen map[string]bool) []*Record {
		if seen[name] {
			return nil
		}
		seen[name] = true
		var recs []*Record
		for _, b := range bases[name] {
			if r := s.byClass[b]; len(r) > 0 {
				recs = append(recs, r...)
			} else {
				recs = append(recs, visit(b, seen)...)
			}
		}
		return recs
	}
	for name := range bases {
		if _, own := s.byClass[name]; own {
			continue
		}
		if recs := visit(name, map[string]bool{}); len(recs) > 0 {
			slices.SortFunc(recs, func(a, b *Record) int { return strings.Compare(a.ID, b.ID) })
			fc.subs[name] = slices.Compact(recs) // a diamond reaches a record twice
		}
	}
	return fc
}

// strMessage is the expression class c's `__str__` returns last, NoNode
// when it has none.
func strMessage(t *syntax.Tree, c syntax.NodeID) syntax.NodeID {
	for m := range t.NamedChildren(t.Field(c, syntax.FBody)) {
		if t.Kind(m) == syntax.DecoratedDefinition {
			m = t.Field(m, syntax.FDefinition)
		}
		if t.Kind(m) != syntax.FunctionDefinition || t.Text(t.Field(m, syntax.FName)) != "__str__" {
			continue
		}
		last := syntax.NoNode
		for st := range t.NamedChildren(t.Field(m, syntax.FBody)) {
			last = st
		}
		if t.Kind(last) == syntax.ReturnStatement {
			return t.NamedChild(last, 0)
		}
	}
	return syntax.NoNode
}

// className is the last part of a class expression: `RuntimeError`,
// `errors.TransferError` -> "TransferError".
func className(t *syntax.Tree, n syntax.NodeID) string {
	n = t.Unparen(n)
	switch t.Kind(n) {
	case syntax.Identifier:
		return t.Text(n)
	case syntax.Attribute:
		return t.Text(t.Field(n, syntax.FAttribute))
	}
	return ""
}

// firstPositional is the first positional argument of an argument list.
func firstPositional(t *syntax.Tree, args syntax.NodeID) syntax.NodeID {
	for c := range t.NamedChildren(args) {
		switch t.Kind(c) {
		case syntax.KeywordArgument, syntax.ListSplat, syntax.DictionarySplat:
			return syntax.NoNode // a message passed by keyword or splat: unknown
		}
		if t.IsError(c) {
			return syntax.NoNode
		}
		return c
	}
	return syntax.NoNode
}

// Conditions is the syntactic condition under which stmt runs in its
// function: the tests of the enclosing if / elif / else branches,
// outermost first, and for an assert its own test taking false.
func Conditions(t *syntax.Tree, stmt syntax.NodeID) []Cond {
	var rev []Cond
	if t.Kind(stmt) == syntax.AssertStatement {
		if test := t.NamedChild(stmt, 0); test != syntax.NoNode {
			rev = append(rev, Cond{test, false})
		}
	}
	for m := stmt; ; {
		p := t.Parent(m)
		if p == syntax.NoNode {
			break
		}
		switch t.Kind(p) {
		case syntax.FunctionDefinition, syntax.Lambda, syntax.ClassDefinition:
			return reverse(rev)
		case syntax.IfStatement:
			if t.FieldOf(m) == syntax.FConsequence {
				rev = append(rev, Cond{t.Field(p, syntax.FCondition), true})
			}
		case syntax.ElifClause:
			if t.FieldOf(m) == syntax.FConsequence {
				rev = append(rev, Cond{t.Field(p, syntax.FCondition), true})
				rev = earlierBranches(t, t.Parent(p), p, rev)
			}
		case syntax.ElseClause:
			if ifs := t.Parent(p); t.Kind(ifs) == syntax.IfStatement {
				rev = earlierBranches(t, ifs, p, rev)
			}
		}
		m = p
	}
	return reverse(rev)
}

// earlierBranches appends, innermost first, the tests of the if statement
// ifs and of its elif clauses before clause, all taking false.
func earlierBranches(t *syntax.Tree, ifs, clause syntax.NodeID, rev []Cond) []Cond {
	var tests []syntax.NodeID
	tests = append(tests, t.Field(ifs, syntax.FCondition))
	for c := range t.FieldAll(ifs, syntax.FAlternative) {
		if c == clause {
			break
		}
		if t.Kind(c) == syntax.ElifClause {
			tests = append(tests, t.Field(c, syntax.FCondition))
		}
	}
	for i := len(tests) - 1; i >= 0; i-- {
		if tests[i] != syntax.NoNode {
			rev = append(rev, Cond{tests[i], false})
		}
	}
	return rev
}

func reverse(cs []Cond) []Cond {
	for i, j := 0, len(cs)-1; i < j; i, j = i+1, j-1 {
		cs[i], cs[j] = cs[j], cs[i]
	}
	return cs
}

// CondText renders conditions as Python source, joined by "and": a test
// taking false is negated readably (`x is None` for a false `x is not
// None`, `local` for a false `not local`).
func CondText(t *syntax.Tree, cs []Cond) string {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		text := condText(t, c)
		if n := t.Unparen(c.Node); len(cs) > 1 && c.Value && t.Kind(n) == syntax.BooleanOperator &&
			t.Kind(t.Field(n, syntax.FOperator)) == syntax.KwOr {
			text = "(" + text + ")" // `a or b` among others joined by and
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, " and ")
}

var negatedOps = map[string]string{
	"is": "is not", "is not": "is", "in": "not in", "not in": "in",
	"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
}

func condText(t *syntax.Tree, c Cond) string {
	n := t.Unparen(c.Node)
	text := oneLine(t.Text(n))
	if c.Value {
		return text
	}
	switch t.Kind(n) {
	case syntax.NotOperator:
		return oneLine(t.Text(t.Field(n, syntax.FArgument)))
	case syntax.ComparisonOperator:
		// Only a single comparison (`a OP b`) negates by its operator.
		ops := 0
		var op syntax.NodeID
		for o := range t.FieldAll(n, syntax.FOperators) {
			ops++
			op = o
		}
		if ops == 1 {
			if neg, ok := negatedOps[strings.Join(strings.Fields(t.Text(op)), " ")]; ok {
				l, r := t.NamedChild(n, 0), t.NamedChild(n, 1)
				return oneLine(t.Text(l)) + " " + neg + " " + oneLine(t.Text(r))
			}
		}
	case syntax.Identifier, syntax.Attribute, syntax.Subscript, syntax.Call:
		return "not " + text
	}
	return "not (" + text + ")"
}

// oneLine collapses whitespace runs (a condition split over lines) and
// the spaces just inside parentheses that a line break left.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer("( ", "(", " )", ")", "[ ", "[", " ]", "]").Replace(s)
}
