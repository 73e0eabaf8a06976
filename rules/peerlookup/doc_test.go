package peerlookup

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/analysistest"
)

// The doc's example is flagged and its fix is not, as the transfer thread
// of a class that fills the table.
func TestDocExamples(t *testing.T) {
	const class = `import threading


class Worker(BaseKVManager):
    def __init__(self, agent, jobs):
        self.agent = agent
        self.jobs = jobs
        self.peer_layouts = {}
        threading.Thread(target=self.transfer_loop, daemon=True).start()

    def register(self, peer, layout):
        self.peer_layouts[peer] = layout

`
	for heading, want := range map[string]int{"## Example": 1, "## Use instead": 0} {
		ds := analysistest.MethodFindings(t, "worker.py", class, analysistest.DocBlock(t, doc, heading), Rule)
		if assert.Len(t, ds, want, heading) && want > 0 {
			assert.Contains(t, ds[0].Message, "ends transfer thread `Worker.transfer_loop`")
		}
	}
}
