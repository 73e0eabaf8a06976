package dropped

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/analysistest"
)

// The doc's example is flagged and its fix is not, as the pop method of a
// transfer queue of a disaggregation module.
func TestDocExamples(t *testing.T) {
	const class = `import logging

logger = logging.getLogger(__name__)


class KVPoll:
    Failed = 0
    Success = 4


def prepare_abort(req, message):
    req.finished = message


class TransferQueue:
    def __init__(self, scheduler):
        self.queue = []
        self.scheduler = scheduler

`
	for heading, want := range map[string]int{"## Example": 1, "## Use instead": 0} {
		ds := analysistest.MethodFindings(t, "engine/disaggregation/queues.py", class,
			analysistest.DocBlock(t, doc, heading), Rule)
		if assert.Len(t, ds, want, heading) && want > 0 {
			assert.Contains(t, ds[0].Message, "`entry` is removed from `self.queue` here")
		}
	}
}
