package peerpublish

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/analysistest"
)

// The doc's example is flagged and its fix is not, inside a class that
// gives them a table, a preparation step and a transfer thread.
func TestDocExamples(t *testing.T) {
	const class = `import threading


class Registrar(BaseKVManager):
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
		ds := analysistest.MethodFindings(t, "reg.py", class, analysistest.DocBlock(t, doc, heading), Rule)
		assert.Len(t, ds, want, heading)
	}
}
