package records

import (
	"fmt"
	"strings"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Guard is how sglint reads one of a record's guard fields (typeGuard,
// validationCode, tryCatchPattern), parsed with the same Python parser as
// the code: the facts its checks establish, or, for a handler, what it
// catches and whether it lets the error go on.
type Guard struct {
	Field string // "typeGuard", "validationCode", "tryCatchPattern"
	// Python: the field parsed as Python without an error; false for prose.
	Python bool
	// Checks are the facts the field's code establishes, in words:
	// "`conn.kv_mem_descs` is non-empty".
	Checks []string
	// Catches is the class a handler catches; Reraises whether it raises
	// again (a handler that does not confines the error).
	Catches  string
	Reraises bool

	facts   []facts.Fact              // the checks' facts, `.get` results left out
	aliases map[facts.Path]facts.Path // `handler = mgr.handler`: local -> path
}

// Required is state that a record's validationCode or typeGuard says
// must be checked before it is used: the path's last name (`kv_mem_descs`
// for `conn.kv_mem_descs`) and what must hold, non-empty (facts.Truthy)
// or not None (facts.NotNone). A `.get` result tested not None is a
// membership check (SGL004's), not state.
type Required struct {
	Field string     // "validationCode" or "typeGuard"
	State string     // the attribute's name
	Kind  facts.Kind // facts.Truthy or facts.NotNone
	Path  facts.Path // as the record writes it
}

// Required lists the state the record's checks name, once each.
func (r *Record) Required() []Required {
	var out []Required
	seen := map[[2]string]bool{}
	for _, g := range r.Guards() {
		if g.Field == "tryCatchPattern" {
			continue
		}
		for _, f := range g.facts {
			if f.Kind != facts.Truthy && f.Kind != facts.NotNone {
				continue
			}
			if to, ok := g.aliases[f.Path]; ok {
				f.Path = to // the state the local was read from
			}
			p := string(f.Path)
			if strings.ContainsAny(p, "[(") {
				continue
			}
			name := p[strings.LastIndexByte(p, '.')+1:]
			if k := [2]string{name, f.Kind.String()}; !seen[k] {
				seen[k] = true
				out = append(out, Required{Field: g.Field, State: name, Kind: f.Kind, Path: f.Path})
			}
		}
	}
	return out
}

// Guards parses the record's guard fields. A field that is not Python
// (prose, as the data set sometimes has) is returned with Python false.
func (r *Record) Guards() []Guard {
	var out []Guard
	p := syntax.NewParser()
	defer p.Close()
	if g, ok := readCode(p, "typeGuard", r.TypeGuard, ""); ok {
		out = append(out, g)
	}
	if g, ok := readCode(p, "validationCode", r.ValidationCode, ""); ok {
		out = append(out, g)
	}
	pattern := r.TryCatchPattern
	prefix := ""
	if strings.HasPrefix(strings.TrimSpace(pattern), "except") {
		prefix = "try:\n    pass\n" // a handler alone is not a statement
	}
	if g, ok := readCode(p, "tryCatchPattern", strings.TrimSpace(pattern), prefix); ok {
		out = append(out, g)
	}
	return out
}

func readCode(p *syntax.Parser, field, code, prefix string) (Guard, bool) {
	if strings.TrimSpace(code) == "" {
		return Guard{}, false
	}
	g := Guard{Field: field}
	t, err := p.Parse([]byte(prefix + code + "\n"))
	if err != nil || !t.Clean() {
		return g, true // prose
	}
	g.Python = true
	gets := map[facts.Path]string{} // local -> "`k` is in `t`" of `local = t.get(k)`
	for i := 0; i < t.Len(); i++ {
		n := syntax.NodeID(i)
		switch t.Kind(n) {
		case syntax.Assignment:
			local, ok := facts.PathOf(t, t.Field(n, syntax.FLeft))
			call := t.Unparen(t.Field(n, syntax.FRight))
			if p, isPath := facts.AttrPathOf(t, call); ok && isPath {
				if g.aliases == nil {
					g.aliases = map[facts.Path]facts.Path{}
				}
				g.aliases[local] = facts.Path(p)
				continue
			}
			if !ok || t.Kind(call) != syntax.Call {
				continue
			}
			fn := t.Field(call, syntax.FFunction)
			if t.Kind(fn) != syntax.Attribute || !t.TextIs(t.Field(fn, syntax.FAttribute), "get") {
				continue
			}
			table, ok1 := facts.PathOf(t, t.Field(fn, syntax.FObject))
			key, ok2 := facts.PathOf(t, t.NamedChild(t.Field(call, syntax.FArguments), 0))
			if ok1 && ok2 {
				gets[local] = fmt.Sprintf("`%s` is in `%s`", key, table)
			}
		case syntax.ReturnStatement:
			if v := t.NamedChild(n, 0); v != syntax.NoNode {
				g.add(facts.TestFacts(t, v, true), gets)
			}
		case syntax.AssertStatement:
			g.add(facts.TestFacts(t, t.NamedChild(n, 0), true), gets)
		case syntax.IfStatement:
			if exits(t, t.Field(n, syntax.FConsequence)) {
				g.add(facts.TestFacts(t, t.Field(n, syntax.FCondition), false), gets)
			}
		case syntax.ExceptClause:
			if c := t.NamedChild(n, 0); c != syntax.NoNode && t.Kind(c) != syntax.Block {
				if t.Kind(c) == syntax.AsPattern {
					c = t.NamedChild(c, 0)
				}
				g.Catches = strings.Join(strings.Fields(t.Text(c)), " ")
			}
			g.Reraises = exitsByRaise(t, n)
		}
	}
	return g, true
}

// add records a check's facts and their words.
func (g *Guard) add(fs []facts.Fact, gets map[facts.Path]string) {
	g.Checks = append(g.Checks, describe(fs, gets)...)
	for _, f := range fs {
		if _, got := gets[f.Path]; !got {
			g.facts = append(g.facts, f)
		}
	}
}

// describe words facts: a `.get` result tested not None says the key is
// in the table.
func describe(fs []facts.Fact, gets map[facts.Path]string) []string {
	var out []string
	for _, f := range fs {
		switch f.Kind {
		case facts.Truthy:
			if in, ok := gets[f.Path]; ok {
				out = append(out, in)
				continue
			}
			out = append(out, fmt.Sprintf("`%s` is non-empty", f.Path))
		case facts.NotNone:
			if in, ok := gets[f.Path]; ok {
				out = append(out, in)
				continue
			}
			out = append(out, fmt.Sprintf("`%s` is not None", f.Path))
		case facts.In:
			out = append(out, fmt.Sprintf("`%s` is in `%s`", f.Key, f.Path))
		}
	}
	return out
}

// exits: the block ends by raising or returning.
func exits(t *syntax.Tree, block syntax.NodeID) bool {
	for c := range t.NamedChildren(block) {
		switch t.Kind(c) {
		case syntax.RaiseStatement, syntax.ReturnStatement, syntax.ContinueStatement:
			return true
		}
	}
	return false
}

// exitsByRaise: a raise statement anywhere in the handler.
func exitsByRaise(t *syntax.Tree, clause syntax.NodeID) bool {
	for d := clause; d < t.SubtreeEnd(clause); d++ {
		if t.Kind(d) == syntax.RaiseStatement {
			return true
		}
	}
	return false
}
