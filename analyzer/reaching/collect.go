package reaching

import (
	"slices"

	"github.com/sglint/sglint/analyzer/syntax"
)

type collector struct {
	r     *Result
	t     *syntax.Tree
	nodes []syntax.NodeID // every block node, sorted (to skip split parts)
	cur   []int32         // definitions of the item being scanned
}

func (c *collector) add(name string, k Kind, target, value, param syntax.NodeID) {
	if name == "" {
		return
	}
	id := int32(len(c.r.defs))
	c.r.defs = append(c.r.defs, Def{Name: name, Kind: k, Target: target, Value: value, Param: param})
	c.r.byName[name] = append(c.r.byName[name], id)
	c.cur = append(c.cur, id)
}

func (c *collector) bindIdent(n syntax.NodeID, k Kind, value syntax.NodeID) {
	if n != syntax.NoNode && c.t.Kind(n) == syntax.Identifier {
		c.add(c.t.Text(n), k, n, value, syntax.NoNode)
	}
}

// params binds the parameters of a function or lambda root.
func (c *collector) params() {
	t := c.t
	root := c.r.g.Root
	switch t.Kind(root) {
	case syntax.FunctionDefinition, syntax.Lambda:
	default:
		return
	}
	ps := t.Field(root, syntax.FParameters)
	if ps == syntax.NoNode {
		return
	}
	for p := range t.NamedChildren(ps) {
		name, value := syntax.NoNode, syntax.NoNode
		switch t.Kind(p) {
		case syntax.Identifier:
			name = p
		case syntax.DefaultParameter, syntax.TypedDefaultParameter:
			name, value = t.Field(p, syntax.FName), t.Field(p, syntax.FValue)
		case syntax.TypedParameter, syntax.ListSplatPattern, syntax.DictionarySplatPattern:
			name = t.NamedChild(p, 0)
			if k := t.Kind(name); k == syntax.ListSplatPattern || k == syntax.DictionarySplatPattern {
				name = t.NamedChild(name, 0)
			}
		}
		if name != syntax.NoNode && t.Kind(name) == syntax.Identifier {
			c.add(t.Text(name), Param, name, value, p)
		}
	}
	c.cur = c.cur[:0]
}

// items records the definitions made by every block node.
func (c *collector) items() {
	r, g := c.r, c.r.g
	r.blockItem = make([]int32, len(g.Blocks)+1)
	for b := range g.Blocks {
		r.blockItem[b+1] = r.blockItem[b] + int32(len(g.Blocks[b].Nodes))
		c.nodes = append(c.nodes, g.Blocks[b].Nodes...)
	}
	slices.Sort(c.nodes)
	r.items = make([][]int32, r.blockItem[len(g.Blocks)])
	k := 0
	for b := range g.Blocks {
		for _, n := range g.Blocks[b].Nodes {
			c.cur = c.cur[:0]
			c.item(n)
			if len(c.cur) > 0 {
				r.items[k] = slices.Clone(c.cur)
			}
			k++
		}
	}
}

func (c *collector) isItem(n syntax.NodeID) bool {
	_, found := slices.BinarySearch(c.nodes, n)
	return found
}

// item finds the bindings evaluated as part of block node n.
func (c *collector) item(n syntax.NodeID) {
	t := c.t
	switch t.Kind(n) {
	case syntax.FunctionDefinition, syntax.ClassDefinition:
		c.bindIdent(t.Field(n, syntax.FName), Define, syntax.NoNode)
		return
	case syntax.DecoratedDefinition:
		if d := t.Field(n, syntax.FDefinition); d != syntax.NoNode {
			c.bindIdent(t.Field(d, syntax.FName), Define, syntax.NoNode)
		}
		return
	case syntax.ImportStatement, syntax.ImportFromStatement, syntax.FutureImportStatement:
		c.imports(n)
		return
	case syntax.CasePattern:
		c.captures(n)
		return
	}
	if p := t.Parent(n); p != syntax.NoNode {
		if t.Kind(p) == syntax.ForStatement && t.FieldOf(n) == syntax.FLeft {
			c.targets(n, Loop)
			return
		}
		if t.FieldOf(n) == syntax.FAlias && t.Kind(p) == syntax.AsPattern {
			c.targets(n, As) // except ... as e
			return
		}
	}
	end := t.SubtreeEnd(n)
	for i := n; i < end; i++ {
		if i != n && c.isItem(i) {
			i = t.SubtreeEnd(i) - 1 // evaluated separately
			continue
		}
		switch t.Kind(i) {
		case syntax.Lambda, syntax.ListComprehension, syntax.SetComprehension,
			syntax.DictionaryComprehension, syntax.GeneratorExpression,
			syntax.FunctionDefinition, syntax.ClassDefinition:
			i = t.SubtreeEnd(i) - 1 // their own scope
		case syntax.Assignment:
			right := t.Field(i, syntax.FRight)
			if right == syntax.NoNode {
				continue // a bare annotation binds nothing
			}
			for t.Kind(t.Unparen(right)) == syntax.Assignment { // a = b = v
				right = t.Field(t.Unparen(right), syntax.FRight)
			}
			left := t.Unparen(t.Field(i, syntax.FLeft))
			if t.Kind(left) == syntax.Identifier {
				c.bindIdent(left, Assign, right)
			} else {
				c.targets(left, Unpack)
			}
		case syntax.AugmentedAssignment:
			c.bindIdent(t.Unparen(t.Field(i, syntax.FLeft)), Augment, i)
		case syntax.NamedExpression:
			c.bindIdent(t.Field(i, syntax.FName), Assign, t.Field(i, syntax.FValue))
		case syntax.DeleteStatement:
			for x := range t.NamedChildren(i) {
				c.targets(x, Delete)
			}
		case syntax.AsPattern:
			if a := t.Field(i, syntax.FAlias); a != syntax.NoNode {
				c.targets(a, As) // with ... as x
			}
		default:
			if t.IsError(i) {
				i = t.SubtreeEnd(i) - 1
			}
		}
	}
}

// targets binds the names of an assignment target pattern; attributes and
// subscripts bind no name.
func (c *collector) targets(n syntax.NodeID, k Kind) {
	t := c.t
	n = t.Unparen(n)
	if n == syntax.NoNode || t.IsError(n) {
		return
	}
	switch t.Kind(n) {
	case syntax.Identifier:
		c.bindIdent(n, k, syntax.NoNode)
	case syntax.Tuple, syntax.TuplePattern, syntax.List, syntax.ListPattern,
		syntax.PatternList, syntax.ExpressionList, syntax.ListSplatPattern, syntax.ListSplat:
		if k == Assign {
			k = Unpack
		}
		for x := range t.NamedChildren(n) {
			c.targets(x, k)
		}
	default:
		// as_pattern_target (`with m as (a, b)`) is an alias the grammar's
		// node types do not list, so it has no Kind variable.
		if t.Kind(n).String() == "as_pattern_target" {
			for x := range t.NamedChildren(n) {
				c.targets(x, k)
			}
		}
	}
}

func (c *collector) imports(n syntax.NodeID) {
	t := c.t
	for x := range t.FieldAll(n, syntax.FName) {
		switch t.Kind(x) {
		case syntax.AliasedImport:
			c.bindIdent(t.Field(x, syntax.FAlias), Import, syntax.NoNode)
		case syntax.DottedName:
			if t.Kind(n) == syntax.ImportStatement {
				c.bindIdent(t.NamedChild(x, 0), Import, syntax.NoNode) // import a.b binds a
			} else {
				last := syntax.NoNode
				for y := range t.NamedChildren(x) {
					last = y
				}
				c.bindIdent(last, Import, syntax.NoNode)
			}
		}
	}
}

// captures binds every plain name of a case pattern (over-approximated:
// class names in class patterns count too; they bind no None).
func (c *collector) captures(n syntax.NodeID) {
	t := c.t
	end := t.SubtreeEnd(n)
	for i := n; i < end; i++ {
		if t.Kind(i) == syntax.Identifier {
			if p := t.Parent(i); p != syntax.NoNode && (t.Kind(p) == syntax.Attribute || t.Kind(p) == syntax.DottedName && t.NamedChild(p, 0) != i) {
				continue
			}
			c.bindIdent(i, Capture, syntax.NoNode)
		}
	}
}

// declaredNonLocal lists the names the scope declares global or nonlocal.
func (c *collector) declaredNonLocal() map[string]bool {
	t := c.t
	root := c.r.g.Root
	out := map[string]bool{}
	if root == syntax.NoNode || int(root) >= t.Len() {
		return out
	}
	start := root
	if body := t.Field(root, syntax.FBody); body != syntax.NoNode && t.Kind(root) != syntax.Module {
		start = body
	}
	end := t.SubtreeEnd(start)
	for i := start; i < end; i++ {
		switch t.Kind(i) {
		case syntax.Lambda, syntax.FunctionDefinition, syntax.ClassDefinition:
			if i != root {
				i = t.SubtreeEnd(i) - 1
			}
		case syntax.GlobalStatement, syntax.NonlocalStatement:
			for x := range t.NamedChildren(i) {
				if t.Kind(x) == syntax.Identifier {
					out[t.Text(x)] = true
				}
			}
		}
	}
	return out
}
