package cfg

import (
	"sync"

	"github.com/sglint/sglint/analyzer/syntax"
)

// Graphs builds the graphs of one file on first request and keeps them.
// It is safe for concurrent use.
type Graphs struct {
	Tree *syntax.Tree
	mu   sync.Mutex
	m    map[syntax.NodeID]*Graph
}

// NewGraphs returns an empty cache for t.
func NewGraphs(t *syntax.Tree) *Graphs { return &Graphs{Tree: t} }

// Of returns the graph rooted at root (see New).
func (gs *Graphs) Of(root syntax.NodeID) *Graph {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if g, ok := gs.m[root]; ok {
		return g
	}
	if gs.m == nil {
		gs.m = make(map[syntax.NodeID]*Graph)
	}
	g := New(gs.Tree, root)
	gs.m[root] = g
	return g
}

// For returns the graph that evaluates n.
func (gs *Graphs) For(n syntax.NodeID) *Graph { return gs.Of(Owner(gs.Tree, n)) }
