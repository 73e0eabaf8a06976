// Package passes holds the shared per-file analyses that rules require
// (go/analysis's Requires/ResultOf): the CFGs and the guard facts of a file,
// each computed at most once per file whatever the number of rules. They live
// here, not in cfg and facts, because the engine itself imports those
// packages (through pymodel) and an Analysis value must import the engine.
package passes

import (
	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/facts"
)

// CFG gives rules the file's *cfg.Graphs through pass.ResultOf.
var CFG = &analyzer.Analysis{
	Name: "cfg",
	Run:  func(pass *analyzer.Pass) (any, error) { return cfg.NewGraphs(pass.File.Tree), nil },
}

// Facts gives rules the file's *facts.FileFacts through pass.ResultOf.
var Facts = &analyzer.Analysis{
	Name:     "facts",
	Requires: []*analyzer.Analysis{CFG},
	Run: func(pass *analyzer.Pass) (any, error) {
		gs, err := pass.ResultOf(CFG)
		if err != nil {
			return nil, err
		}
		return facts.NewFileFacts(gs.(*cfg.Graphs)), nil
	},
}
