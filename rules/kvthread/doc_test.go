package kvthread

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/analysistest"
)

// The doc's example is flagged and its fix is not, as the transfer thread
// of a manager that fails requests with record_failure and update_status.
func TestDocExamples(t *testing.T) {
	const class = `import threading


class KVPoll:
    Failed = 0


class Manager(BaseKVManager):
    def __init__(self, queue):
        self.queue = queue
        self.status = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def record_failure(self, room, reason):
        self.status[room] = reason

    def update_status(self, room, status):
        self.status[room] = status

    def _stage(self, chunk):
        return chunk.ok

    def _post(self, chunk):
        return chunk

`
	for heading, want := range map[string]int{"## Example": 1, "## Use instead": 0} {
		ds := analysistest.MethodFindings(t, "worker.py", class, analysistest.DocBlock(t, doc, heading), Rule)
		if assert.Len(t, ds, want, heading) && want > 0 {
			assert.Contains(t, ds[0].Message, "KV thread `Manager.transfer_worker` ends when serving one request fails: this handler raises again")
			assert.Contains(t, ds[0].Message, "`raise RuntimeError(\"staging failed\")`")
		}
	}
}
