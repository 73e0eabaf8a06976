package peerpublish

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
)

// The doc's example is flagged and its fix is not, inside a class that
// gives them a table, a preparation step and a transfer thread.
func TestDocExamples(t *testing.T) {
	const class = `import threading


class Registrar:
    def __init__(self, agent, jobs):
        self.agent = agent
        self.jobs = jobs
        self.peer_layouts = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def _prepare(self, layout):
        layout.dest_kind = "VRAM"
        layout.segments = []

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            layout = self.peer_layouts.get(job.peer)
            if layout is not None:
                self.agent.post(job.pages, layout.dest_kind)

`
	for heading, want := range map[string]int{"## Example": 1, "## Use instead": 0} {
		method := "    " + strings.ReplaceAll(strings.TrimRight(analysistest.DocBlock(t, doc, heading), "\n"), "\n", "\n    ") + "\n"
		res := analyzer.Run([]analyzer.Input{{Path: "reg.py", Src: []byte(class + method), Report: true}},
			analyzer.Options{Rules: []*analyzer.Rule{Rule}, Root: "."})
		require.Empty(t, res.Problems)
		assert.Len(t, res.Diagnostics, want, heading)
	}
}
