package rules_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/rules"
	"github.com/sglint/sglint/rules/sendpath"
)

// Every KV rule together on a project with a transfer backend and the
// look-alike families that fired before send paths were scoped to KV
// classes (testdata/rules/scope/README.md): each rule fires once in the
// backend, and nothing fires outside it.
func TestKVScopeLookAlikes(t *testing.T) {
	set, err := records.Load(filepath.Join("..", "testdata", "records", "seed"))
	require.NoError(t, err)
	var kv []*analyzer.Rule
	for _, id := range []string{"SGL001", "SGL002", "SGL003", "SGL004", "SGL010"} {
		kv = append(kv, rules.ByID(id))
	}
	analysistest.RunWith(t, filepath.Join("..", "testdata", "rules", "scope"), checker.Options{Records: set}, kv...)
}

// The look-alikes are silent because of the scope, not because the rules
// cannot read them: named as KV bases, their classes draw findings of
// SGL001, SGL002, SGL004 and SGL010 (SGL003's look-alike is checked on its
// own, with the bases that alone make it fire, in the next test).
func TestKVScopeLookAlikesWouldFire(t *testing.T) {
	set, err := records.Load(filepath.Join("..", "testdata", "records", "seed"))
	require.NoError(t, err)
	var kv []*analyzer.Rule
	for _, id := range []string{"SGL001", "SGL002", "SGL004", "SGL010"} {
		kv = append(kv, rules.ByID(id))
	}
	scope := &sendpath.ScopeOptions{
		Bases:         []string{"BaseKVManager", "BaseKVSender", "Scheduler", "TokenizerManager", "ModelRunner", "BuddyAllocator"},
		EntryPatterns: sendpath.DefaultPatterns,
		Entries:       []string{"run_scheduler_process"},
	}
	opts := checker.Options{Records: set, SectionOptions: map[string]any{sendpath.Section.Key: scope}}
	ds := analysistest.Findings(t, filepath.Join("..", "testdata", "rules", "scope"), opts, kv...)
	fired := map[string]bool{}
	for _, d := range ds {
		if strings.HasPrefix(d.Path, "managers/") {
			fired[d.Rule.ID+" "+d.Function] = true
		}
	}
	for _, want := range []string{
		"SGL001 Scheduler.send_cache_page",
		"SGL002 Scheduler.send_cache_page",
		"SGL004 Scheduler.send_finished",
		"SGL004 TokenizerManager._send_one_request",
		"SGL004 ModelRunner.send_weights_to_remote_instance",
		"SGL004 BuddyAllocator.free",
		"SGL010 run_scheduler_process",
	} {
		assert.True(t, fired[want], "%s (fired: %v)", want, fired)
	}
	assert.False(t, fired["SGL001 Scheduler.send_to_detokenizer"], "the waiting queue is not registration state, even in scope")
}

// The same for SGL003: the scheduler's request table, filled and then
// completed, is a publish before initialisation once Scheduler counts as
// a KV base, and only then.
func TestKVScopePublishLookAlikeWouldFire(t *testing.T) {
	dir := filepath.Join("..", "testdata", "rules", "scope")
	fired := func(bases ...string) []string {
		scope := &sendpath.ScopeOptions{Bases: bases, EntryPatterns: sendpath.DefaultPatterns}
		opts := checker.Options{SectionOptions: map[string]any{sendpath.Section.Key: scope}}
		var out []string
		for _, d := range analysistest.Findings(t, dir, opts, rules.ByID("SGL003")) {
			out = append(out, d.Path+" "+d.Function)
		}
		return out
	}
	assert.Equal(t, []string{"disagg/conn.py FastKVManager.add_peer"}, fired("BaseKVManager", "BaseKVSender"))
	assert.Equal(t, []string{"disagg/conn.py FastKVManager.add_peer", "managers/scheduler.py Scheduler._add_request_then_encode"},
		fired("BaseKVManager", "BaseKVSender", "Scheduler"))
}
