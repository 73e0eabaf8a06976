package kvescape

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/analysistest"
)

// The doc's example is flagged and its fix is not, as the poll of a
// sender the scheduler calls.
func TestDocExamples(t *testing.T) {
	const class = `class KVPoll:
    Failed = 0
    Success = 4


class Manager(BaseKVManager):
    def __init__(self, agent):
        self.agent = agent
        self.status = {}

    def record_failure(self, room, reason):
        self.status[room] = reason


class Sender(BaseKVSender):
    def __init__(self, mgr: Manager, room):
        self.kv_mgr = mgr
        self.room = room
        self.handles = []

`
	for heading, want := range map[string]int{"## Example": 1, "## Use instead": 0} {
		ds := analysistest.MethodFindings(t, "sender.py", class, analysistest.DocBlock(t, doc, heading), Rule)
		if assert.Len(t, ds, want, heading) && want > 0 {
			assert.Contains(t, ds[0].Message, "an error of one request escapes scheduler call `Sender.poll`")
		}
	}
}
