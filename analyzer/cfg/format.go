package cfg

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/sglint/sglint/analyzer/syntax"
)

// Format renders g as text, one block after another, for golden tests and
// debugging:
//
//	b3 if.then (idom b0):
//		raise ValueError("x")
//		-> b2 raise
//	b4 if.done (idom b0):
//		...
//		-> b5 [true: x is None]
func (g *Graph) Format() string {
	var sb strings.Builder
	t := g.Tree
	for i := range g.Blocks {
		blk := &g.Blocks[i]
		fmt.Fprintf(&sb, "b%d %s", blk.ID, blk.Kind)
		switch {
		case blk.ID == Entry:
		case !g.Reachable(blk.ID):
			sb.WriteString(" (unreachable)")
		default:
			fmt.Fprintf(&sb, " (idom b%d)", g.Idom(blk.ID))
		}
		sb.WriteString(":\n")
		for _, n := range blk.Nodes {
			fmt.Fprintf(&sb, "\t%s", NodeText(t, n, 60))
			if g.IsSplit(n) {
				sb.WriteString("  (split)")
			}
			sb.WriteString("\n")
		}
		for _, e := range g.Succs(blk.ID) {
			fmt.Fprintf(&sb, "\t-> b%d%s\n", e.To, g.edgeLabel(e))
		}
	}
	return sb.String()
}

func (g *Graph) edgeLabel(e Edge) string {
	var parts []string
	if e.Kind != Normal {
		parts = append(parts, e.Kind.String())
	}
	if e.Cond != syntax.NoNode {
		t := g.Tree
		switch t.Kind(e.Cond) {
		case syntax.ForStatement:
			parts = append(parts, pick(e.Value, "next", "exhausted"))
		case syntax.CaseClause:
			parts = append(parts, pick(e.Value, "match", "no match"))
		case syntax.ExceptClause, syntax.ExceptGroupClause:
			parts = append(parts, pick(e.Value, "caught", "not caught"))
		default:
			parts = append(parts, fmt.Sprintf("%t: %s", e.Value, NodeText(t, e.Cond, 50)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " [" + strings.Join(parts, " ") + "]"
}

func pick(v bool, yes, no string) string {
	if v {
		return yes
	}
	return no
}

// NodeText is n's source on one line, whitespace runs collapsed, cut to at
// most max runes.
func NodeText(t *syntax.Tree, n syntax.NodeID, max int) string {
	var sb strings.Builder
	space, count := false, 0
	for _, r := range t.Text(n) {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && sb.Len() > 0 {
			sb.WriteByte(' ')
			count++
		}
		space = false
		if count >= max {
			sb.WriteString("…")
			break
		}
		sb.WriteRune(r)
		count++
	}
	return sb.String()
}
