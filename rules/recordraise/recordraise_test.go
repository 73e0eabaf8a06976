package recordraise_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/rules/readinessguard"
	"github.com/sglint/sglint/rules/recordraise"
	"github.com/sglint/sglint/rules/sendpath"
)

func testdata(parts ...string) string {
	return filepath.Join(append([]string{"..", "..", "testdata"}, parts...)...)
}

func load(t *testing.T, paths ...string) *records.Set {
	t.Helper()
	set, err := records.Load(paths...)
	require.NoError(t, err)
	return set
}

// The own fixture records against testdata/rules/sgl010 (see its README).
func TestOwnRecords(t *testing.T) {
	set := load(t, testdata("records", "own"), testdata("records", "jsonl", "records.jsonl"))
	res := analysistest.RunWith(t, testdata("rules", "sgl010"), checker.Options{Records: set}, recordraise.Rule)
	require.NotNil(t, res)
	require.Len(t, res.Diagnostics, 7)

	// One message and chain in full: what, from where, when, why, the
	// record and its first prevention tip.
	d := res.Diagnostics[1]
	assert.Equal(t, "a1f0c0de00000002", d.Record)
	assert.Equal(t, "PlanSender.send_window_fast", d.Function)
	assert.Equal(t, "ValueError(\"Remote window is not registered\") from `PlanSender._window_for` can escape "+
		"send entry `PlanSender.send_window_fast` through this call when `peer` is not in `self.remote_windows`: "+
		"no check on the way excludes it and no handler fails just the request, so the caller fails instead of one request "+
		"(record a1f0c0de00000002 remote-window-not-registered); "+
		"hint: check for it before this call and fail only this request; "+
		"the record advises: Check the peer is registered before sending, in every send entry", d.Message)
	assert.Equal(t, []analyzer.Related{
		{Path: "plans.py", Line: 53, Column: 9, Message: "send entry `PlanSender.send_window_fast`"},
		{Path: "plans.py", Line: 54, Column: 35, Message: "calls `PlanSender._window_for`"},
		{Path: "plans.py", Line: 45, Column: 13, Message: "raises ValueError when `peer not in self.remote_windows` (record a1f0c0de00000002)"},
	}, d.Related)
	assert.Contains(t, res.Diagnostics[2].Message, "so the thread ends instead of one request failing")
	// The message an error class builds in __str__; failure_exception
	// raising it by contract and a send entry whose caller fails the room
	// are silent (contract.py).
	assert.Equal(t, "RoomSender.poll", res.Diagnostics[0].Function)
	assert.Contains(t, res.Diagnostics[0].Message, `raises RoomTransferError("RoomTransferError(room=…): …")`)
	assert.Contains(t, res.Diagnostics[0].Message, "so the scheduler's event loop fails instead of one request")
	assert.Contains(t, res.Diagnostics[0].Message, "hint: instead of raising, fail only this request with "+
		"`self.kv_mgr.record_failure(...)` and `self.kv_mgr.update_status(..., KVPoll.Failed)`, as `send` does at line 53",
		"a raise in the entry itself, with the backend's own way to fail a request")
}

// The seed records applied to the SGL001 and SGL002 fixtures.
func TestSeedRecords(t *testing.T) {
	set := load(t, testdata("records", "seed"))
	for _, dir := range []string{"sgl001", "sgl002"} {
		res := analysistest.RunWith(t, testdata("rules", dir), checker.Options{Records: set}, recordraise.Rule)
		require.NotNil(t, res)
	}
}

// Entry patterns and entries come from the kv-scope settings; thread targets
// are entries whatever they say. Without records the rule does nothing.
func TestOptionsAndNoRecords(t *testing.T) {
	dir := testdata("rules", "sgl010")
	src, err := os.ReadFile(filepath.Join(dir, "plans.py"))
	require.NoError(t, err)
	in := []checker.Input{{Path: "plans.py", Src: src, Report: true}}
	set := load(t, testdata("records", "own"), testdata("records", "jsonl", "records.jsonl"))
	lines := func(res *checker.Result) []int {
		var out []int
		for _, d := range res.Diagnostics {
			out = append(out, d.Start.Line)
		}
		return out
	}
	opts := &sendpath.ScopeOptions{EntryPatterns: []string{}, Entries: []string{"PlanSender.send_ring"}}
	for _, jobs := range []int{1, 3} {
		res := checker.Run(in, checker.Options{Rules: []*analyzer.Rule{recordraise.Rule}, Records: set, Jobs: jobs,
			SectionOptions: map[string]any{sendpath.Section.Key: opts}})
		assert.Equal(t, []int{80, 107}, lines(res), "the thread target and the configured entry")
	}
	res := checker.Run(in, checker.Options{Rules: []*analyzer.Rule{recordraise.Rule}})
	assert.Empty(t, res.Diagnostics)
}

// When the rule written for a record reports the same place as SGL010 for
// that record (SGL001 (b) and the seed record 795554d942550d42), only the
// dedicated rule's finding is kept; SGL010 alone still reports it.
func TestDedicatedRuleWins(t *testing.T) {
	set := load(t, testdata("records", "seed"))
	dir := testdata("rules", "sgl001")
	alone := analysistest.Findings(t, dir, checker.Options{Records: set}, recordraise.Rule)
	both := analysistest.Findings(t, dir, checker.Options{Records: set}, recordraise.Rule, readinessguard.Rule)
	places := func(ds []analyzer.Diagnostic, rule string) []string {
		var out []string
		for _, d := range ds {
			if d.Rule.ID == rule {
				out = append(out, fmt.Sprintf("%s:%d", d.Path, d.Start.Line))
			}
		}
		return out
	}
	want := []string{"executor.py:41", "record_shape.py:46", "worker_handlers.py:53"}
	assert.Equal(t, want, places(alone, "SGL010"))
	for _, d := range alone {
		if d.Path == "executor.py" {
			assert.Contains(t, d.Message, "so executor task `DetachedWorker._move_detached` keeps it in the Future `submit` returned, which no send path reads (`.result()`), and the request is never failed", "worded as SGL001 and SGL004 word it")
		}
	}
	assert.Empty(t, places(both, "SGL010"), "SGL001 reports both places for the same record")
	assert.Subset(t, places(both, "SGL001"), want)
}

// A record's validationCode names the state its raise checks; other uses
// of that state on KV paths that fail the same way without the check are
// reported at the use (testdata/rules/sgl010state).
func TestStateTheRecordChecks(t *testing.T) {
	set := load(t, testdata("records", "state"))
	res := analysistest.RunWith(t, testdata("rules", "sgl010state"), checker.Options{Records: set}, recordraise.Rule)
	require.NotNil(t, res)
	require.Len(t, res.Diagnostics, 3)
	assert.Equal(t, "`self.ring_descs[0]` raises IndexError when `self.ring_descs` is empty, which the record's validationCode "+
		"checks is non-empty before its raise; nothing in send entry `RingManager.send_head` checks it and no handler fails "+
		"just the request, so the caller fails instead of one request (record a1f0c0de0000000b ring-descriptors-empty); "+
		"hint: check it first, as the record's raise site does (`if not self.ring_descs:`), and fail only this request; "+
		"the record advises: Check the ring is attached before sending from it", res.Diagnostics[0].Message)
}
