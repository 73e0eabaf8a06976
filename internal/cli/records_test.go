package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/rules"
)

// testdataDir is the repository's testdata, absolute (tests chdir).
func testdataDir(t *testing.T, parts ...string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join(append([]string{"..", "..", "testdata"}, parts...)...))
	require.NoError(t, err)
	return dir
}

func TestRecordsCommand(t *testing.T) {
	own := testdataDir(t, "records", "own")
	jsonl := testdataDir(t, "records", "jsonl", "records.jsonl")
	dir := testdataDir(t, "rules", "sgl010")
	o := runMain(t, dir, nil, "records", "--records", own, ".", "--records", jsonl)
	require.Equal(t, ExitClean, o.code, o.stderr)
	lines := strings.Split(strings.TrimSuffix(o.stdout, "\n"), "\n")
	require.Len(t, lines, 13, o.stdout)
	assert.Regexp(t, `^ID\s+SLUG\s+CLASS\s+SITES$`, lines[0])
	assert.Regexp(t, `^795554d942550d42\s+kv-memory-descriptors-are-empty-on-prefill-side\s+RuntimeError\s+0 \(shipped with sglint; its raise site is not in these files\)$`, lines[1],
		"the records sglint ships are listed, and not called stale")
	assert.Regexp(t, `^a1f0c0de00000001\s+layer-plan-missing\s+RuntimeError\s+1$`, lines[2])
	assert.Regexp(t, `^a1f0c0de00000005\s+stale-pattern\s+RuntimeError\s+0 \(stale\? no raise site matches`, lines[6], "zero sites are shown")
	assert.Regexp(t, `^a1f0c0de00000008\s+ring-not-initialised\s+AssertionError\s+1$`, lines[9])
	assert.Regexp(t, `^a1f0c0de0000000a\s+room-transfer-error\s+RoomTransferError\s+3$`, lines[10])
	assert.Regexp(t, `^d0bf6111ca6909b6\s+missing-nixl-destination-kv-memory-kind\s+RuntimeError\s+0 \(shipped`, lines[11])
	assert.Equal(t, "11 records from 8 files and 2 shipped with sglint; 10 raise sites in 3 files checked; 1 loaded record matched none.", lines[12])
	assert.Empty(t, o.stderr)

	o = runMain(t, dir, nil, "records", "--sites", "--records", jsonl)
	assert.Contains(t, o.stdout, "plans.py:86:13: a1f0c0de00000006 RuntimeError(\"No transfer plan for peer …\") in PlanSender._plan_for when plan is None\n"+
		"    matched: its message can be the record's")
	assert.Contains(t, o.stdout, "plans.py:95:13: a1f0c0de00000007 LookupError(\"Unknown segment … for room …\") in PlanSender._segment when name not in self.engine.segments\n")

	o = runMain(t, dir, nil, "records", "--format", "json", "--records", own)
	require.Equal(t, ExitClean, o.code, o.stderr)
	var got []recordJSON
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &got))
	require.Len(t, got, 9, "7 loaded, 2 shipped")
	assert.Equal(t, "a1f0c0de00000008", got[6].ID)
	require.Len(t, got[6].Sites, 1)
	assert.Equal(t, siteRow{Path: "plans.py", Line: 103, Column: 9, Function: "PlanSender._ring_view",
		Message: "Ring is not initialised for worker …", Condition: "self.ring is None", HintScore: 1,
		Why: "its message can be the record's; its path ends like the record's filePath (1 component)"}, got[6].Sites[0])
	assert.NotNil(t, got[5].Sites, "an empty list, not null")
	assert.Empty(t, got[5].Sites)
}

func TestRecordsCommandErrors(t *testing.T) {
	malformed := testdataDir(t, "records", "malformed")
	seed := testdataDir(t, "records", "seed")
	dir := t.TempDir()
	putFile(t, dir, "a.py", "x = 1\n")
	o := runMain(t, dir, nil, "records")
	assert.Equal(t, ExitClean, o.code, "with no record file, the records sglint ships")
	assert.Contains(t, o.stdout, "2 records from sglint itself; 0 raise sites in 1 file checked; 0 loaded records matched none.\n")

	o = runMain(t, dir, nil, "records", "--records", malformed)
	assert.Equal(t, ExitError, o.code)
	assert.Empty(t, o.stdout)
	assert.Equal(t, 4, strings.Count(o.stderr, "sglint: "), o.stderr)
	assert.Contains(t, o.stderr, "prevention-tips-not-list.json: record a1f0c0de000000f3: preventionTips: expected a list of strings, got a string\n")

	o = runMain(t, dir, nil, "records", "--format", "sarif", "--records", seed)
	assert.Equal(t, ExitError, o.code)
	assert.Contains(t, o.stderr, "records prints text or json")

	o = runMain(t, dir, nil, "records", "--records", seed, "missing.py")
	assert.Equal(t, ExitError, o.code, "an unreadable path fails, after listing")
	assert.Contains(t, o.stdout, "2 records from 2 files; 0 raise sites in 0 files checked; 2 loaded records matched none.")
}

// Records named in the config are read relative to its directory and come
// before --records; sglint explain finds them too.
func TestRecordsFromConfig(t *testing.T) {
	dir := t.TempDir()
	seed := testdataDir(t, "records", "seed")
	for _, name := range []string{"795554d942550d42.json", "d0bf6111ca6909b6.json"} {
		b, err := os.ReadFile(filepath.Join(seed, name))
		require.NoError(t, err)
		putFile(t, dir, "recs/"+name, string(b))
	}
	putFile(t, dir, "pyproject.toml", "[tool.sglint]\nrecords = [\"recs\"]\n")
	putFile(t, dir, "pkg/conn.py", "def f(d):\n    if not d:\n        raise RuntimeError('KV memory descriptors are empty on prefill side')\n")
	o := runMain(t, dir, nil, "records", "--sites")
	require.Equal(t, ExitClean, o.code, o.stderr)
	assert.Contains(t, o.stdout, "pkg/conn.py:3:9: 795554d942550d42 RuntimeError(\"KV memory descriptors are empty on prefill side\") in f when not d\n")
	assert.Contains(t, o.stdout, "2 records from 2 files; 1 raise site in 1 file checked; 1 loaded record matched none.")

	o = runMain(t, filepath.Join(dir, "pkg"), nil, "explain", "d0bf6111ca6909b6")
	require.Equal(t, ExitClean, o.code, o.stderr)
	assert.True(t, strings.HasPrefix(o.stdout, "# missing-nixl-destination-kv-memory-kind (record d0bf6111ca6909b6)\n\n`RuntimeError`: Missing NIXL destination KV memory kind\n"), o.stdout)
	assert.Contains(t, o.stdout, "Read from "+filepath.Join(dir, "recs", "d0bf6111ca6909b6.json")+".", "outside the working directory: absolute")

	// A check loads them too; a malformed one stops the run before checking.
	putFile(t, dir, "bad.json", `{"id": "x", "errorClass": "E"}`)
	o = runMain(t, dir, nil, "--records", "bad.json", "pkg")
	assert.Equal(t, outcome{ExitError, "", "sglint: bad.json: record x: messagePattern: missing (required)\n"}, o)
	o = runMain(t, dir, nil, "pkg")
	assert.Equal(t, ExitClean, o.code, o.stderr)
}

func TestExplainRecord(t *testing.T) {
	seed := testdataDir(t, "records", "seed")
	dir := t.TempDir() // no Python file: the page says so
	o := runMain(t, dir, nil, "explain", "--records", seed, "795554d942550d42")
	require.Equal(t, ExitClean, o.code, o.stderr)
	want := "# kv-memory-descriptors-are-empty-on-prefill-side (record 795554d942550d42)\n\n" +
		"`RuntimeError`: KV memory descriptors are empty on prefill side\n\n" +
		"Severity: critical. Handling: validation. Message pattern: `KV memory descriptors are empty on prefill side`. " +
		"Raised at python/sglang/srt/disaggregation/mori/conn.py:851 when recorded. Data set version fixture. " +
		"Read from " + filepath.Join(seed, "795554d942550d42.json") + ".\n\n" +
		"## Documentation\n\nFixture copy. The per-layer split of the local KV descriptors raises when this rank registered none.\n\n" +
		"## Trigger scenarios\n\nA rank without KV buffers receives a KV send; registration was skipped or produced nothing.\n\n" +
		"## Solutions\n\n- Skip the KV send on ranks that registered no descriptors\n\n" +
		"## Prevention tips\n\n- Check the descriptor list in the send entry and skip the KV send when it is empty\n\n" +
		"## Rules derived from it\n\n"
	assert.True(t, strings.HasPrefix(o.stdout, want), o.stdout)
	for _, id := range []string{"SGL001 kv-send-without-readiness-guard, from its errorClass, messagePattern and typeGuard.",
		"SGL006 kv-error-escapes-entry, from its tryCatchPattern and handlingStrategy.",
		"SGL007 kv-empty-transfer, from its typeGuard and tryCatchPattern.", "SGL008 kv-request-dropped, from its tryCatchPattern."} {
		assert.Contains(t, o.stdout, "\n- "+id+" ")
	}
	assert.True(t, strings.HasSuffix(o.stdout, "## In .\n\nNo Python file here. Run `sglint explain 795554d942550d42 PATH` on a checkout "+
		"(its python/ directory) to see the record's raise sites and the findings derived from it.\n"), o.stdout)
	assert.Equal(t, o, runMain(t, dir, nil, "explain", "kv-memory-descriptors-are-empty-on-prefill-side", "--records", seed), "by slug")

	o = runMain(t, dir, nil, "explain", "--records", seed, "795554d942550d4")
	assert.Equal(t, outcome{ExitError, "", "sglint: unknown rule or record \"795554d942550d4\" (did you mean 795554d942550d42?)\nRun 'sglint rules' or 'sglint records' for the lists.\n"}, o)

	o = runMain(t, dir, nil, "explain", "--records", seed, "SGL000")
	assert.Equal(t, ExitClean, o.code, "rules still explain")
	assert.Contains(t, o.stdout, "# syntax-error (SGL000)")
	o = runMain(t, dir, nil, "explain", "SGL000", "python")
	assert.Equal(t, ExitError, o.code, "paths follow a record id only")
	assert.Contains(t, o.stderr, "paths follow a record id only")
}

// Issue 30: the records sglint's rules derive from ship with it. With no
// record file, `explain <id>` prints what the binary knows (no prose), the
// derivation, and the record's raise sites and derived findings in the
// tree given.
func TestExplainBuiltinRecord(t *testing.T) {
	example := testdataDir(t, "example")
	seed := testdataDir(t, "records", "seed")
	dir := t.TempDir()
	o := runMain(t, dir, nil, "explain", "d0bf6111ca6909b6")
	require.Equal(t, ExitClean, o.code, o.stderr)
	assert.True(t, strings.HasPrefix(o.stdout, "# missing-nixl-destination-kv-memory-kind (record d0bf6111ca6909b6)\n\n"+
		"`RuntimeError`: Missing NIXL destination KV memory kind\n\n"+
		"Severity: error. Handling: try-catch. Message pattern: `Missing NIXL destination KV memory kind`. "+
		"Raised at python/sglang/srt/disaggregation/nixl/conn.py:1229 (commit 01328483) when recorded. "+
		"Data set version 2026-08-28T06:17:29.519Z. Shipped with sglint, which carries only this summary"), o.stdout)
	assert.NotContains(t, o.stdout, "## Documentation", "no prose without the record file")
	assert.Contains(t, o.stdout, "\n- SGL004 unchecked-peer-lookup, from its validationCode. ")

	// Sites and findings in a tree: the example project raises the other
	// record's message in a helper that add_transfer_request reaches.
	o = runMain(t, dir, nil, "explain", "795554d942550d42", example)
	require.Equal(t, ExitClean, o.code, o.stderr)
	assert.Contains(t, o.stdout, "## In "+example+"\n\nRaise sites (`raise RuntimeError(...)` or `assert` whose message can match): 1 in ")
	assert.Regexp(t, `\n- \S+ringdma/conn.py:\d+:\d+ in `+"`RingKVManager._mha_slices`"+`: KV memory descriptors are empty on prefill side`, o.stdout)
	assert.Regexp(t, `\n- \S+ringdma/conn.py:54:9 SGL001 `+"`add_transfer_request` calls into a send path", o.stdout)
	assert.Contains(t, o.stdout, "\nThe full messages: `sglint --select SGL001,SGL006,SGL007,SGL008 "+example+"`.\n")

	// No site: the closest statement of the class, and why it differs.
	putFile(t, dir, "near/conn.py", "def f(d):\n    if not d:\n        raise RuntimeError(\"KV memory descriptors are empty on the prefill rank\")\n")
	o = runMain(t, dir, nil, "explain", "795554d942550d42", "near")
	require.Equal(t, ExitClean, o.code, o.stderr)
	assert.Contains(t, o.stdout, "): 0 in 1 file.\nNone: this code does not raise it")
	assert.Contains(t, o.stdout, "The closest statement is near/conn.py:3:9 in `f`: `RuntimeError(\"KV memory descriptors are empty on the prefill rank\")`, "+
		"whose message differs from the record's `KV memory descriptors are empty on prefill side`.\n")

	// A loaded record file replaces the shipped record: its prose shows.
	b, err := os.ReadFile(filepath.Join(seed, "d0bf6111ca6909b6.json"))
	require.NoError(t, err)
	putFile(t, dir, "records/d0bf6111ca6909b6.json", string(b))
	putFile(t, dir, "pyproject.toml", "[tool.sglint]\nrecords = [\"records\"]\n")
	o = runMain(t, dir, nil, "explain", "d0bf6111ca6909b6")
	require.Equal(t, ExitClean, o.code, o.stderr)
	assert.Contains(t, o.stdout, "Read from records/d0bf6111ca6909b6.json.")
	assert.Contains(t, o.stdout, "## Documentation\n\nFixture copy.")

	// An id sglint does not ship, and no records: say how to load them.
	o = runMain(t, t.TempDir(), nil, "explain", "e0a1b2c3d4e5f601")
	assert.Equal(t, ExitError, o.code)
	assert.True(t, strings.HasPrefix(o.stderr, "sglint: no error records are loaded, so record \"e0a1b2c3d4e5f601\" cannot be explained\nLoad them"), o.stderr)
}

// A rule whose related locations walk a call chain gets a SARIF codeFlow;
// others do not.
func TestSARIFCodeFlowForChains(t *testing.T) {
	chain := &analyzer.Rule{ID: "SGL998", Name: "chain", Title: "t", Doc: "d", RelatedIsChain: true,
		Run: func(p *analyzer.Pass) error {
			p.ReportNode(p.File.Tree().Root(), "chained", analyzer.RelatedAt(p.File, p.File.Tree().Root(), "entry"))
			return nil
		}}
	plain := &analyzer.Rule{ID: "SGL997", Name: "plain", Title: "t", Doc: "d",
		Run: func(p *analyzer.Pass) error {
			p.ReportNode(p.File.Tree().Root(), "plain", analyzer.RelatedAt(p.File, p.File.Tree().Root(), "elsewhere"))
			return nil
		}}
	saved := registry
	registry = func() []*analyzer.Rule { return append(rules.All(), chain, plain) }
	t.Cleanup(func() { registry = saved })
	dir := t.TempDir()
	putFile(t, dir, "a.py", "x = 1\n")
	o := runMain(t, dir, nil, "--format", "sarif", "--select", "SGL998,SGL997", "a.py")
	require.Equal(t, ExitFindings, o.code, o.stderr)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				CodeFlows []any  `json:"codeFlows"`
			} `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &log))
	got := map[string]int{}
	for _, r := range log.Runs[0].Results {
		got[r.RuleID] = len(r.CodeFlows)
	}
	assert.Equal(t, map[string]int{"SGL998": 1, "SGL997": 0}, got)
}

// explain reads a loaded record's guard fields as Python and says what
// sglint makes of them; --records may come before the subcommand.
func TestExplainReadsTheRecordsGuards(t *testing.T) {
	recs := testdataDir(t, "records", "guards")
	o := runMain(t, t.TempDir(), nil, "--records", recs, "explain", "a1f0c0de00000009")
	require.Equal(t, ExitClean, o.code, o.stderr)
	assert.Contains(t, o.stdout, "## How sglint reads its guards\n\n"+
		"- typeGuard: a predicate, true when `mgr.ring_descs` is non-empty. A project function that returns such a test counts as the check wherever it is called")
	assert.Contains(t, o.stdout, "- validationCode: checks that `peer_id` is in `mgr.remote_rings` and `peer.windows` is non-empty.")
	assert.Contains(t, o.stdout, "- tryCatchPattern: a handler of `RuntimeError` that does not raise again.")
	assert.Contains(t, o.stdout, "SGL010 also reports the other uses of the state these checks name (`ring_descs` non-empty and `windows` non-empty)")
	assert.Equal(t, o, runMain(t, t.TempDir(), nil, "explain", "--records", recs, "a1f0c0de00000009"), "in any order")
	assert.NotContains(t, runMain(t, "", nil, "explain", "795554d942550d42").stdout, "How sglint reads its guards",
		"the shipped summary carries no guard code")
}

// A loaded record's page counts SGL010's findings among those derived
// from it, the uses of the state its checks name included, and says how
// to load it to see them in full.
func TestExplainLoadedRecordShowsSGL010(t *testing.T) {
	recs := testdataDir(t, "records", "state")
	dir := testdataDir(t, "rules", "sgl010state")
	o := runMain(t, dir, nil, "--records", recs, "explain", "a1f0c0de0000000b", ".")
	require.Equal(t, ExitClean, o.code, o.stderr)
	assert.Contains(t, o.stdout, "Findings derived from it: 3.\n")
	assert.Contains(t, o.stdout, "state.py:44:33 SGL010 `self.ring_descs[0]` raises IndexError when `self.ring_descs` is empty")
	assert.Contains(t, o.stdout, "The full messages: `sglint --records "+filepath.Join(recs, "a1f0c0de0000000b.json")+" --select SGL010 .`.")
}
