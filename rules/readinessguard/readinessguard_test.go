package readinessguard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/rules/sendpath"
)

const fixtures = "../../testdata/rules/sgl001"

func TestFixtures(t *testing.T) {
	analysistest.Run(t, fixtures, Rule)
}

// runOn runs SGL001 on the fixture directory with opts (nil: defaults).
func runOn(t *testing.T, opts *Options) []analyzer.Diagnostic {
	t.Helper()
	return analysistest.Findings(t, fixtures, analysistest.WithOptions(Rule, opts), Rule)
}

func TestSeveritiesAndRelated(t *testing.T) {
	ds := runOn(t, nil)
	// (a) is an error at the use, with the chain and the state's history.
	a := analysistest.At(ds, "record_shape.py", 33)
	require.NotNil(t, a)
	assert.Equal(t, analyzer.Error, a.Severity())
	var rel []string
	for _, r := range a.Related {
		rel = append(rel, r.Message)
	}
	assert.Equal(t, []string{
		"send entry `LayerDescriptorManager.add_transfer_request`",
		"calls `LayerDescriptorManager.send_kvcache`",
		"calls `LayerDescriptorManager._flat_layers`",
		"`self.kv_mem_descs` starts empty here",
		"`self.kv_mem_descs` is filled here (LayerDescriptorManager._register_buffers)",
	}, rel)

	// (b) is a warning at the entry's call, naming the exception and its
	// message, with the chain to the raise.
	b := analysistest.At(ds, "record_shape.py", 46)
	require.NotNil(t, b)
	assert.Equal(t, analyzer.Warning, b.Severity())
	assert.Contains(t, b.Message, `RuntimeError("KV memory descriptors are empty on prefill side")`)
	assert.Contains(t, b.Message, "Refuse to start when nothing is registered: raise in `LayerDescriptorManager._register_buffers` when `self.kv_mem_descs` is still empty",
		"the advice never says to skip the send, which would move no KV")
	assert.NotContains(t, b.Message, "skip")
	require.Len(t, b.Related, 2)
	assert.Equal(t, 39, b.Related[0].Line)
	assert.Equal(t, 26, b.Related[1].Line)
	w := analysistest.At(ds, "worker_handlers.py", 53)
	require.NotNil(t, w)
	assert.Contains(t, w.Message, "ends the transfer thread `_pump`")
}

func TestEquivalenceGroupsAreConfigurable(t *testing.T) {
	opts := DefaultOptions()
	opts.Equivalent = nil
	ds := runOn(t, opts)
	assert.NotNil(t, analysistest.At(ds, "equivalent.py", 16), "without the group the pointer check does not count")

	opts.Equivalent = [][]string{{"self.kv_mem_descs", "self.kv_args.aux_data_ptrs"}}
	ds = runOn(t, opts)
	assert.Nil(t, analysistest.At(ds, "equivalent.py", 26), "a configured group makes the aux check count")
	assert.NotNil(t, analysistest.At(ds, "equivalent.py", 16))
}

func TestEntryPatternsAreConfigurable(t *testing.T) {
	opts := sendpath.DefaultScopeOptions()
	opts.EntryPatterns = []string{}
	run := func() []analyzer.Diagnostic {
		return analysistest.Findings(t, fixtures, analysistest.WithSection(sendpath.Section, opts), Rule)
	}
	ds := run()
	// Only thread and executor targets and scheduler-facing methods remain:
	// the workers' (b) findings, the use in the worker a constructor starts
	// before its check, and a sender's `send`.
	var fns []string
	for _, d := range ds {
		fns = append(fns, d.Path+":"+d.Function)
	}
	assert.Equal(t, []string{
		"executor.py:DetachedWorker._move_detached",
		"invariant.py:EagerWorkerManager._pump",
		"kv_args.py:StageStateSender.send",
		"kv_args.py:StageStateReceiver.send_metadata",
		"worker_handlers.py:ThreadFatalWorker._pump",
	}, fns)

	opts.Entries = []string{"ShardSender.send_last_shard"}
	ds = run()
	assert.NotNil(t, analysistest.At(ds, "layerpkg/shard_sender.py", 8))
}

func TestValidate(t *testing.T) {
	assert.NoError(t, DefaultOptions().Validate())
	bad := []*Options{
		{Equivalent: [][]string{{"self.a"}}},
		{Equivalent: [][]string{{"self.a", "kv_args.ptrs"}}},
		{Equivalent: [][]string{{"self.a", "self.b[0]"}}},
	}
	for _, o := range bad {
		assert.Error(t, o.Validate(), "%+v", o)
	}
}

// A finding on a list of the KV args shows where the project handles the
// empty case and names that method as the fix.
func TestKVArgsEvidence(t *testing.T) {
	ds := runOn(t, nil)
	d := analysistest.At(ds, "kv_args.py", 112)
	require.NotNil(t, d)
	assert.Contains(t, d.Message, "as `StageStateReceiver.init` does")
	require.NotEmpty(t, d.Related)
	ev := d.Related[len(d.Related)-1]
	assert.Equal(t, "kv_args.py", ev.Path)
	assert.Equal(t, 108, ev.Line)
	assert.Contains(t, ev.Message, "is tested for emptiness here (StageStateReceiver.init)")
}
