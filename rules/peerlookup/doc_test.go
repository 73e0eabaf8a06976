package peerlookup

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
)

// The doc's example is flagged and its fix is not, as the transfer thread
// of a class that fills the table.
func TestDocExamples(t *testing.T) {
	const class = `import threading


class Worker:
    def __init__(self, agent, jobs):
        self.agent = agent
        self.jobs = jobs
        self.peer_layouts = {}
        threading.Thread(target=self.transfer_loop, daemon=True).start()

    def register(self, peer, layout):
        self.peer_layouts[peer] = layout

`
	for heading, want := range map[string]int{"## Example": 1, "## Use instead": 0} {
		method := "    " + strings.ReplaceAll(strings.TrimRight(analysistest.DocBlock(t, doc, heading), "\n"), "\n", "\n    ") + "\n"
		res := analyzer.Run([]analyzer.Input{{Path: "worker.py", Src: []byte(class + method), Report: true}},
			analyzer.Options{Rules: []*analyzer.Rule{Rule}, Root: "."})
		require.Empty(t, res.Problems)
		if assert.Len(t, res.Diagnostics, want, heading) && want > 0 {
			assert.Contains(t, res.Diagnostics[0].Message, "ends transfer thread `Worker.transfer_loop`")
		}
	}
}
