package emptysend

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/analysistest"
)

// The doc's example is flagged and its fix is not, as the chunk sender of
// the prefill scheduler's disaggregation mixin.
func TestDocExamples(t *testing.T) {
	const class = `class SchedulerDisaggregationPrefillMixin:
    def process_prefill_chunk(self):
        if self.chunked_req:
            self.send_kv_chunk(self.chunked_req)

`
	for heading, want := range map[string]int{"## Example": 1, "## Use instead": 0} {
		ds := analysistest.MethodFindings(t, "engine/disaggregation/prefill.py", class,
			analysistest.DocBlock(t, doc, heading), Rule)
		if assert.Len(t, ds, want, heading) && want > 0 {
			assert.Contains(t, ds[0].Message, "`kv_indices` can be empty here (it slices from `req.start_send_idx`")
			assert.Contains(t, ds[0].Message, "the decode side waits for it until its timeout")
		}
	}
}
