package emptysend

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
	sgchecker "github.com/sglint/sglint/analyzer/checker"
)

const fixtures = "../../testdata/rules/sgl007"

func TestFixtures(t *testing.T) {
	analysistest.Run(t, fixtures, Rule)
}

// A send whose every backend tests the length of what it receives is not
// reported; one backend that does not is named.
func TestBackendsThatCheck(t *testing.T) {
	const queue = `class SchedulerDisaggregationPrefillMixin:
    def process_prefill_chunk(self):
        req = self.chunked_req
        start = req.start_send_idx
        req.start_send_idx = req.end
        req.disagg_kv_sender.send(req.pages[start:req.end])
`
	const checking = `class BaseKVSender:
    pass


class SkippingSender(BaseKVSender):
    def send(self, kv_indices, state_indices=None):
        if len(kv_indices) == 0:
            return
        self.post(kv_indices)
`
	const posting = `

class PostingSender(BaseKVSender):
    def send(self, kv_indices, state_indices=None):
        self.post(kv_indices)
`
	run := func(senders string) []analyzer.Diagnostic {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "engine/disaggregation/prefill.py"), queue)
		write(t, filepath.Join(dir, "engine/disaggregation/senders.py"), senders)
		return analysistest.Findings(t, dir, sgchecker.Options{}, Rule)
	}
	assert.Empty(t, run(checking))
	ds := run(checking + posting)
	if assert.Len(t, ds, 1) {
		assert.Contains(t, ds[0].Message, "it slices from `req.start_send_idx`")
		require.Len(t, ds[0].Related, 3)
		assert.Contains(t, ds[0].Related[2].Message, "`PostingSender.send` does not look at the length of what it sends")
	}
}

func write(t *testing.T, path, src string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
}
