// Package cfg builds one control-flow graph per Python function from the
// flat syntax tree, in the spirit of golang.org/x/tools/go/cfg: a graph of
// basic blocks whose nodes are syntax.NodeIDs evaluated in order, with
// edges that say which condition was tested and which value it took, so
// that analyses (package facts) can learn something on each edge.
//
// A graph is built for every scope that runs code: the module's top level,
// each function_definition, each lambda, and each class body. Nested
// functions, lambdas and classes are items of the enclosing graph (their
// definition runs there: decorators, defaults, bases) but their bodies are
// not; they get graphs of their own.
//
// What is modelled:
//   - if/elif/else, while and for (with else), break, continue, return,
//     raise, assert (a failing edge to the raise exit), with, match/case.
//   - `and`, `or`, `not`, parentheses and conditional expressions are
//     decomposed wherever they are evaluated, so every condition on an edge
//     is atomic and `if a and b:` reaches its body through a's true edge and
//     then b's. Constant True/False conditions have one edge only.
//   - try/except/else/finally: every block of a try body that evaluates
//     something has an Exception edge to the handler dispatch (the except
//     clauses tested in order); finally bodies are copied onto every path
//     that crosses them (fallthrough, exception, return, break, continue),
//     as CPython's compiler does, so facts on one path do not leak into
//     another.
//
// What is not modelled (documented limits): implicit exceptions outside try
// statements (a call anywhere may raise; only explicit raise and assert
// reach the raise exit), exceptions suppressed by a with statement's
// context manager, the iteration structure of comprehensions (a
// comprehension is one node), and concurrency at await/yield points.
//
// Code inside ERROR nodes (tree-sitter's recovery) is skipped; building a
// graph never fails and never panics on a partial tree.
package cfg

import (
	"sort"

	"github.com/sglint/sglint/analyzer/syntax"
)

// BlockID indexes Graph.Blocks.
type BlockID int32

// NoBlock is the absent block.
const NoBlock BlockID = -1

// The first three blocks of every graph.
const (
	Entry  BlockID = 0 // where the function starts; holds its first nodes
	Return BlockID = 1 // normal exit: a return or falling off the end
	Raise  BlockID = 2 // raise exit: an exception leaves the function
)

// EdgeKind says how control moves along an edge.
type EdgeKind uint8

const (
	// Normal: fallthrough, a branch, or a jump (break, continue, return).
	Normal EdgeKind = iota
	// RaiseEdge: an explicit raise, a failing assert, or the re-raise at the
	// end of a finally copy; it leaves after the block's last node.
	RaiseEdge
	// Exception: an implicit exception that may occur anywhere inside the
	// source block, before any of its nodes completes. Only blocks inside
	// try statements have such edges.
	Exception
)

func (k EdgeKind) String() string {
	switch k {
	case RaiseEdge:
		return "raise"
	case Exception:
		return "exception"
	}
	return "normal"
}

// Edge is a control transfer between blocks. When Cond is set the edge is
// taken when Cond evaluated to Value:
//   - an expression (never a boolean_operator, not_operator or parenthesized
//     expression: those are decomposed) tested for truth;
//   - a for_statement: Value true means the iterator produced an item,
//     false that it was exhausted;
//   - a case_clause: Value true means its patterns matched;
//   - an except_clause: Value true means it caught the exception.
type Edge struct {
	From, To BlockID
	Kind     EdgeKind
	Cond     syntax.NodeID
	Value    bool
}

// Block is a basic block: Nodes are evaluated in order, then control leaves
// along one of the block's successor edges.
type Block struct {
	ID   BlockID
	Kind BlockKind
	// Stmt is the statement whose lowering created the block (NoNode for
	// the entry and exits); for readability only.
	Stmt syntax.NodeID
	// Nodes evaluated in order: simple statements, conditions, and the parts
	// of expressions that short-circuit splits. A node is a whole subtree:
	// its descendants are evaluated as part of it, except those listed
	// themselves (see Graph.IsSplit).
	Nodes []syntax.NodeID

	succ0, succ1 int32 // range in Graph.edges
	pred0, pred1 int32 // range in Graph.preds
}

// Site is where a graph evaluates a node: Block.Nodes[Index] for a node
// that is evaluated as a whole, or the position before Block.Nodes[Index]
// (Index may equal len(Nodes)) for a compound statement or expression whose
// parts are spread over several blocks.
type Site struct {
	Node  syntax.NodeID
	Block BlockID
	Index int32
}

// Graph is the control-flow graph of one scope. It is immutable once built
// and safe for concurrent reads.
type Graph struct {
	Tree   *syntax.Tree
	Root   syntax.NodeID // module, function_definition, lambda or class_definition
	Blocks []Block

	edges []Edge // grouped by From, in creation order within a block
	preds []Edge // the same edges grouped by To
	sites []Site // sorted by Node, then creation order
	split []syntax.NodeID

	idom     []BlockID
	rpo      []BlockID
	pre, end []int32 // dominator tree preorder interval of each block
}

// Succs are b's outgoing edges, in creation order.
func (g *Graph) Succs(b BlockID) []Edge {
	blk := &g.Blocks[b]
	return g.edges[blk.succ0:blk.succ1]
}

// Preds are b's incoming edges.
func (g *Graph) Preds(b BlockID) []Edge {
	blk := &g.Blocks[b]
	return g.preds[blk.pred0:blk.pred1]
}

// Edges are all edges of the graph, grouped by source block.
func (g *Graph) Edges() []Edge { return g.edges }

// Sites are all sites of the graph, sorted by node.
func (g *Graph) Sites() []Site { return g.sites }

// IsSplit reports whether n is a block node some of whose descendants are
// evaluated separately (listed as nodes themselves, possibly in other
// blocks), as in `y = a and b`: the assignment is a node, after a and b.
func (g *Graph) IsSplit(n syntax.NodeID) bool {
	i := sort.Search(len(g.split), func(i int) bool { return g.split[i] >= n })
	return i < len(g.split) && g.split[i] == n
}

// Locate returns the sites at which g evaluates n: those of n itself or of
// the innermost enclosing node that g evaluates. It is empty when n is not
// evaluated by g (it lies in a nested function, lambda or class body, or
// outside g's root). A node has several sites only when it sits in a finally
// body, which is copied onto each path through it.
func (g *Graph) Locate(n syntax.NodeID) []Site {
	t := g.Tree
	if n < 0 || int(n) >= t.Len() || !t.Contains(g.Root, n) {
		return nil
	}
	for m := n; m != g.Root && m != syntax.NoNode; {
		if s := g.sitesOf(m); len(s) > 0 {
			return s
		}
		p := t.Parent(m)
		if p != syntax.NoNode && isScope(t.Kind(p)) && t.FieldOf(m) == syntax.FBody {
			return nil // m is the body of a nested scope
		}
		m = p
	}
	return nil
}

func (g *Graph) sitesOf(n syntax.NodeID) []Site {
	i := sort.Search(len(g.sites), func(i int) bool { return g.sites[i].Node >= n })
	j := i
	for j < len(g.sites) && g.sites[j].Node == n {
		j++
	}
	return g.sites[i:j]
}

// SitesWithin returns the sites of nodes in [lo, hi), sorted by node.
func (g *Graph) SitesWithin(lo, hi syntax.NodeID) []Site {
	i := sort.Search(len(g.sites), func(i int) bool { return g.sites[i].Node >= lo })
	j := sort.Search(len(g.sites), func(j int) bool { return g.sites[j].Node >= hi })
	if j < i {
		j = i
	}
	return g.sites[i:j]
}

// isScope reports node kinds whose body is a separate graph.
func isScope(k syntax.Kind) bool {
	return k == syntax.FunctionDefinition || k == syntax.Lambda || k == syntax.ClassDefinition
}

// Owner returns the root of the graph that evaluates n: the innermost
// function_definition, lambda or class_definition whose body contains n, or
// the module. Decorators, default values and base classes belong to the
// enclosing scope, as in Python.
func Owner(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	if t.Len() == 0 {
		return syntax.NoNode
	}
	for m := n; m != syntax.NoNode; {
		p := t.Parent(m)
		if p == syntax.NoNode {
			return m
		}
		if isScope(t.Kind(p)) && t.FieldOf(m) == syntax.FBody {
			return p
		}
		m = p
	}
	return t.Root()
}

// Roots lists, in source order, the root of every graph in t: the module,
// then each function, lambda and class not inside an ERROR node.
func Roots(t *syntax.Tree) []syntax.NodeID {
	if t.Len() == 0 {
		return nil
	}
	roots := []syntax.NodeID{t.Root()}
	for i := 1; i < t.Len(); i++ {
		n := syntax.NodeID(i)
		if t.IsError(n) {
			// Skip the ERROR subtree: its code is not trusted.
			i = int(t.SubtreeEnd(n)) - 1
			continue
		}
		if isScope(t.Kind(n)) {
			roots = append(roots, n)
		}
	}
	return roots
}
