package peerlookup

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/rules/sendpath"
)

const fixtures = "../../testdata/rules/sgl004"

func TestFixtures(t *testing.T) {
	analysistest.Run(t, fixtures, Rule)
}

// runOn runs SGL004 on the fixtures with the kv-scope settings opts (nil:
// defaults).
func runOn(t *testing.T, opts *sendpath.ScopeOptions) []analyzer.Diagnostic {
	t.Helper()
	return analysistest.Findings(t, fixtures, analysistest.WithSection(sendpath.Section, opts), Rule)
}

func related(d *analyzer.Diagnostic) []string {
	var out []string
	for _, r := range d.Related {
		out = append(out, fmt.Sprintf("%s:%d %s", r.Path, r.Line, r.Message))
	}
	return out
}

func TestMessagesAndRelated(t *testing.T) {
	ds := runOn(t, nil)

	// A thread whose handler raises again.
	d := analysistest.At(ds, "workers.py", 23)
	require.NotNil(t, d)
	assert.Equal(t, analyzer.Error, d.Severity())
	assert.Equal(t, Record, d.Record)
	assert.Contains(t, d.Message, "`self.peer_layouts[job.peer]` raises KeyError when `job.peer` was never added to the table or was removed")
	assert.Contains(t, d.Message, "the handler at line 25 raises again, so the error ends transfer thread `ThreadFatalWorker._loop`")
	assert.Contains(t, d.Message, "`self.peer_layouts.get(job.peer)`")
	assert.Equal(t, []string{
		"workers.py:25 this handler raises again",
		"workers.py:15 transfer thread `ThreadFatalWorker._loop` is started here",
		"tablepkg/base.py:10 `peer_layouts[name]` is set here",
	}, related(d))

	// A socket loop, a check of another table, a table of counts per room,
	// and the removal that races the lookup.
	d = analysistest.At(ds, "wording.py", 29)
	require.NotNil(t, d)
	assert.NotContains(t, d.Message, "queued")
	assert.NotContains(t, d.Message, "nothing checks")
	assert.Equal(t, []string{
		"wording.py:16 KV thread `CountingManager.listen` is started here",
		"wording.py:20 `remaining[room]` is set here",
		"wording.py:45 keys are removed from `remaining` here (pop, CountingSender.abort)",
	}, related(d))

	// A send entry the scheduler calls: no thread to end.
	d = analysistest.At(ds, "lookups.py", 19)
	require.NotNil(t, d)
	assert.Contains(t, d.Message, "escapes send entry `LookupSender.send_plain` into code outside the send path")

	// A nested entry: judged through its caller, whose handler raises.
	d = analysistest.At(ds, "nested.py", 33)
	require.NotNil(t, d)
	assert.Contains(t, d.Message, "ends transfer thread `NestedSender._fatal_loop`")
	assert.Contains(t, related(d), "nested.py:51 calls `NestedSender._send_fatal_inner`")
	assert.Contains(t, related(d), "nested.py:54 this handler raises again")
}

// An executor task's error surfaces where its Future is read: the message
// names the thread that reads it, and the related locations the read.
func TestFutureMessages(t *testing.T) {
	ds := runOn(t, nil)
	d := analysistest.At(ds, "futures.py", 32)
	require.NotNil(t, d)
	assert.Contains(t, d.Message, "no handler catches it, so it ends transfer thread `FutureFatalWorker._loop`")
	assert.NotContains(t, d.Message, "thread `FutureFatalWorker._push`", "the submitted function is no thread")
	assert.Contains(t, related(d), "futures.py:39 reads the Future of `FutureFatalWorker._push`, which raises its error again here")
	d = analysistest.At(ds, "futures.py", 46)
	require.NotNil(t, d)
	assert.Contains(t, d.Message, "executor task `FutureDroppedWorker._push` keeps it in the Future `submit` returned")
}

// The kv-scope entry patterns apply: without name patterns, scheduler
// methods and servers only thread targets start send paths, so the
// scheduler-side entries go quiet.
func TestOptions(t *testing.T) {
	lines := func(ds []analyzer.Diagnostic) []string {
		var out []string
		for _, d := range ds {
			out = append(out, fmt.Sprintf("%s:%d", d.Path, d.Start.Line))
		}
		return out
	}
	all := lines(runOn(t, nil))
	assert.Contains(t, all, "lookups.py:19")
	none := []string{}
	threadsOnly := lines(runOn(t, &sendpath.ScopeOptions{EntryPatterns: none, SchedulerMethods: none, ServerBases: none}))
	assert.Equal(t, []string{"asserts.py:22", "futures.py:32", "futures.py:46", "futures.py:79", "futures.py:113",
		"nested.py:33", "nested.py:61", "receivers.py:25", "receivers.py:46", "records.py:27",
		"wording.py:29", "workers.py:23", "workers.py:33", "workers.py:65", "workers.py:77"}, threadsOnly)
	// The scheduler's calls alone: poll and init.
	scheduled := lines(runOn(t, &sendpath.ScopeOptions{EntryPatterns: none, ServerBases: none}))
	assert.Subset(t, scheduled, []string{"scheduled.py:21", "scheduled.py:53"})
	assert.NotContains(t, scheduled, "scheduled.py:79")
	withEntry := lines(runOn(t, &sendpath.ScopeOptions{EntryPatterns: none, SchedulerMethods: none, ServerBases: none,
		Entries: []string{"LookupSender.send_plain"}}))
	assert.Contains(t, withEntry, "lookups.py:19")
	assert.Len(t, withEntry, 16)
}
