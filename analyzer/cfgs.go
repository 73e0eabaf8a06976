package analyzer

import (
	"time"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
)

// CFG is the shared analysis holding the control-flow graphs of one file.
// Its result, a *Graphs, builds each graph the first time a rule asks for
// it and keeps it for the other rules on the same file: a rule that looks
// at three functions pays for three graphs, not for every function of the
// file. Rules use it through Pass.CFG.
var CFG = &Analysis{Name: "cfg", Run: func(p *Pass) (any, error) {
	return &Graphs{tree: p.File.Tree, byRoot: map[syntax.NodeID]*cfg.Graph{}, stats: p.state.stats}, nil
}}

// Graphs memoises the control-flow graphs of one file's scopes. Like every
// per-file analysis result it is used by one goroutine at a time.
type Graphs struct {
	tree   *syntax.Tree
	byRoot map[syntax.NodeID]*cfg.Graph
	stats  *workerStats
}

// Of returns the graph of the scope rooted at root: a function_definition,
// lambda, class_definition or module node of the file (cfg.Owner gives the
// root of the scope evaluating a node).
func (g *Graphs) Of(root syntax.NodeID) *cfg.Graph {
	if gr, ok := g.byRoot[root]; ok {
		return gr
	}
	t0 := time.Now()
	gr := cfg.New(g.tree, root)
	if g.stats != nil {
		g.stats.cfg += time.Since(t0)
		g.stats.cfgs++
	}
	g.byRoot[root] = gr
	return gr
}

// Len is the number of graphs built so far.
func (g *Graphs) Len() int { return len(g.byRoot) }

// CFG returns the control-flow graph of the scope rooted at root in the
// pass's file (see Graphs.Of), built on first use and shared by all rules
// on this file.
func (p *Pass) CFG(root syntax.NodeID) *cfg.Graph {
	v, err := p.ResultOf(CFG)
	if err != nil { // CFG's Run cannot fail; keep the contract total anyway
		return cfg.New(p.File.Tree, root)
	}
	return v.(*Graphs).Of(root)
}
