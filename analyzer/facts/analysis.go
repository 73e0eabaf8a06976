package facts

import (
	"sync"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
)

// FileFacts computes, on first request, the facts of each graph of one
// file with default Options (no interprocedural hooks) and keeps them. It
// is safe for concurrent use. Rules that feed callers' or callees' facts
// in call Analyze with their own Options.
type FileFacts struct {
	Graphs *cfg.Graphs
	mu     sync.Mutex
	m      map[*cfg.Graph]*Result
}

// NewFileFacts returns an empty cache over gs.
func NewFileFacts(gs *cfg.Graphs) *FileFacts { return &FileFacts{Graphs: gs} }

// For returns the facts of the graph that evaluates n.
func (ff *FileFacts) For(n syntax.NodeID) *Result {
	g := ff.Graphs.For(n)
	ff.mu.Lock()
	defer ff.mu.Unlock()
	if r, ok := ff.m[g]; ok {
		return r
	}
	if ff.m == nil {
		ff.m = make(map[*cfg.Graph]*Result)
	}
	r := Analyze(ff.Graphs.Tree, g, Options{})
	ff.m[g] = r
	return r
}
