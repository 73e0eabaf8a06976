package output

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/internal/golden"
)

var (
	ruleErr = &analyzer.Rule{
		ID: "SGL901", Name: "send-before-ready", Severity: analyzer.Error, Record: "R-001",
		Title: "KV sent before the receiver is ready",
		Doc: "## What it does\nFinds a send that no readiness check\nguards.\n\n## Why is this bad?\nThe peer drops it.\n\n" +
			"## Example\n```python\nsend(req)\n```\n",
	}
	ruleWarn = &analyzer.Rule{
		ID: "SGL902", Name: "bare-except", Severity: analyzer.Warning,
		Title: "Exception swallowed", Doc: "No sections here.",
	}
	ruleIdle = &analyzer.Rule{
		ID: "SGL903", Name: "never-fires", Severity: analyzer.Error,
		Title: "A rule that ran and found nothing", Doc: "## What it does\nNothing.\n",
	}
)

func pos(line, col int) syntax.Position { return syntax.Position{Line: line, Column: col} }

// sample covers what formats must get right: unicode, characters that need
// escaping in messages and in GitHub properties, related locations, a
// severity override, a zero-width span and two findings on identical lines.
func sample() *Report {
	override := analyzer.Diagnostic{
		Rule: ruleErr, Path: "pkg/conn.py", Start: pos(40, 9), End: pos(40, 30),
		Message: "send without readiness guard (downgraded)", Function: "Sender.send", Record: "R-001",
		LineText: "        self.sock.send(req)",
	}
	override.SetSeverity(analyzer.Warning)
	return &Report{
		Tool:    Tool{Name: "sglint", Version: "1.2.3", InformationURI: "https://github.com/sglint/sglint"},
		Rules:   []*analyzer.Rule{ruleWarn, ruleErr, ruleIdle},
		Files:   3,
		SrcRoot: "/home/runner/work/sglang/sglang",
		Diagnostics: []analyzer.Diagnostic{
			{
				Rule: ruleErr, Path: "pkg/conn.py", Start: pos(12, 5), End: pos(12, 31),
				Message:  "`send_kvcache` sends before `poll()` == Ready: 100% lost, retry\nlater",
				Function: "MooncakeKVSender.send", Record: "R-001",
				LineText: "    self.send_kvcache(req, dst)",
				Related: []analyzer.Related{
					{Path: "pkg/conn.py", Line: 3, Column: 1, Message: "entry point: MooncakeKVSender.send"},
					{Path: "pkg/engine.py", Line: 77, Column: 13, Message: "readiness is set here"},
				},
			},
			{
				Rule: ruleErr, Path: "pkg/conn.py", Start: pos(20, 5), End: pos(20, 31),
				Message: "second identical line", LineText: "    self.send_kvcache(req, dst)",
			},
			override,
			{
				Rule: ruleWarn, Path: "odd dir,v2/naïve:1.py", Start: pos(2, 12), End: pos(2, 12),
				Message: "ünïcode message, with: colons", LineText: "x = «é» + é",
			},
		},
		Problems: []analyzer.Problem{
			{Path: "pkg/bad.py", Message: "cannot read: permission denied"},
			{Path: "pkg/boom.py", Internal: true, Message: "rule SGL901 panicked: boom\ngoroutine 1 [running]:\n..."},
			{Path: "pkg/blob.py", Warning: true, Message: "binary file (NUL byte at 1:1), skipped"},
		},
	}
}

func render(t *testing.T, f Formatter, r *Report) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, f(&b, r))
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	empty := &Report{Tool: sample().Tool, Rules: []*analyzer.Rule{ruleErr}, Files: 2}
	for _, name := range Names() {
		f, err := Lookup(name)
		require.NoError(t, err)
		t.Run(name, func(t *testing.T) {
			golden.Assert(t, name+".golden", render(t, f, sample()))
			golden.Assert(t, name+"-empty.golden", render(t, f, empty))
		})
	}
	withFlow := sample()
	withFlow.CodeFlow = func(d *analyzer.Diagnostic) []analyzer.Related { return d.Related }
	golden.Assert(t, "sarif-codeflow.golden", render(t, SARIF, withFlow))
}

func TestLookupUnknown(t *testing.T) {
	_, err := Lookup("xml")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown format "xml"`)
	assert.Equal(t, []string{"concise", "full", "github", "json", "sarif", "text"}, Names())
	_, err = Lookup("jsn")
	assert.EqualError(t, err, `unknown format "jsn" (did you mean json?): want one of concise, full, github, json, sarif, text`)
}

func TestTextSummary(t *testing.T) {
	r := sample()
	r.Problems = nil
	out := string(render(t, Concise, r))
	assert.True(t, strings.HasSuffix(out, "\nFound 4 problems in 2 files: 2 errors (SGL901 ×2), 2 warnings (SGL901, SGL902).\n"), out)
	r.Diagnostics = r.Diagnostics[:1]
	assert.Contains(t, string(render(t, Concise, r)), "\nFound 1 problem in 1 file: 1 error (SGL901).\n")
	r.Diagnostics = nil
	assert.Equal(t, "All checks passed.\n", string(render(t, Concise, r)))
	assert.Equal(t, "All checks passed.\n", string(render(t, Full, r)))
}

// The summary never says "All checks passed." when something asked for was
// not checked: it counts what was not.
func TestSummarySaysWhatWasNotChecked(t *testing.T) {
	r := sample()
	assert.Equal(t, "Found 4 problems in 2 files: 2 errors (SGL901 ×2), 2 warnings (SGL901, SGL902); "+
		"1 path could not be read, 1 file hit an internal error, 1 file was skipped.", Summary(r))
	r.Diagnostics = nil
	r.Problems = []analyzer.Problem{{Path: "./nonexistent", Message: "no such file or directory"}}
	r.Files = 0
	assert.Equal(t, "Nothing was checked; 1 path could not be read.", Summary(r))
	r.Files = 2
	r.Problems = append(r.Problems, analyzer.Problem{Path: "b", Message: "cannot read"}, analyzer.Problem{Path: "b", Message: "again"})
	r.NotRun = []NotRun{{Rule: ruleIdle, Reason: "no records are loaded"}}
	r.BaselineHidden = 3
	assert.Equal(t, "No problems found in 2 files; 2 paths could not be read, SGL903 did not run (no records are loaded), "+
		"the baseline hid 3 findings.", Summary(r))
}

func TestJSONKeysAndEmptyArrays(t *testing.T) {
	var got []map[string]any
	require.NoError(t, json.Unmarshal(render(t, JSON, sample()), &got))
	require.Len(t, got, 4)
	for _, d := range got {
		var keys []string
		for k := range d {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		assert.Equal(t, []string{"column", "end_column", "end_line", "function", "line", "message",
			"name", "path", "record", "related", "rule", "severity"}, keys)
		assert.NotNil(t, d["related"], "related is [] rather than null")
	}
	assert.Equal(t, "warning", got[2]["severity"], "per-finding severity override")
	assert.Equal(t, "[]\n", string(render(t, JSON, &Report{})))
}

func TestGitHubEscaping(t *testing.T) {
	assert.Equal(t, "a%25b%0Dc%0Ad: e, f", escapeData("a%b\rc\nd: e, f"))
	assert.Equal(t, "a%25b%0Dc%0Ad%3A e%2C f", escapeProperty("a%b\rc\nd: e, f"))

	out := string(render(t, GitHub, sample()))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 9, out) // 4 commands, 4 text lines, summary
	// The heading is the title; the rest (record, related places) the message.
	assert.Equal(t, "::error title=SGL901%3A `send_kvcache` sends before `poll()` == Ready%3A 100%25 lost%2C retry later,"+
		"file=pkg/conn.py,line=12,col=5,endLine=12,endColumn=31::"+
		"record: R-001%0Apkg/conn.py:3:1: entry point: MooncakeKVSender.send%0Apkg/engine.py:77:13: readiness is set here", lines[0])
	assert.True(t, strings.HasPrefix(lines[2], "::warning "), "severity override: %s", lines[2])
	assert.Contains(t, lines[3], "file=odd dir%2Cv2/naïve%3A1.py,")
	assert.True(t, strings.HasSuffix(lines[3], "::ünïcode message, with: colons"), "a message with nothing more: the heading again")
	assert.Equal(t, "pkg/conn.py:12:5: SGL901 `send_kvcache` sends before `poll()` == Ready: 100% lost, retry later", lines[4],
		"the concise lines follow, for the log")
	assert.True(t, strings.HasPrefix(lines[8], "Found 4 problems in 2 files: "), lines[8])
}

// TestSARIFForCodeScanning checks the properties GitHub code scanning reads.
func TestSARIFForCodeScanning(t *testing.T) {
	var log map[string]any
	require.NoError(t, json.Unmarshal(render(t, SARIF, sample()), &log))
	assert.Equal(t, "2.1.0", log["version"])
	assert.Contains(t, log["$schema"], "sarif-schema-2.1.0.json")
	runs := log["runs"].([]any)
	require.Len(t, runs, 1)
	run := runs[0].(map[string]any)
	assert.Equal(t, "unicodeCodePoints", run["columnKind"])
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	for _, k := range []string{"name", "version", "informationUri"} {
		assert.NotEmpty(t, driver[k], k)
	}
	rules := driver["rules"].([]any)
	require.Len(t, rules, 3, "every rule that ran, even without findings")
	var ids []string
	for _, r := range rules {
		rule := r.(map[string]any)
		ids = append(ids, rule["id"].(string))
		assert.NotEmpty(t, rule["name"])
		for _, k := range []string{"shortDescription", "fullDescription"} {
			assert.NotEmpty(t, rule[k].(map[string]any)["text"], k)
		}
		help := rule["help"].(map[string]any)
		assert.NotEmpty(t, help["text"])
		assert.NotEmpty(t, help["markdown"])
		assert.Contains(t, []any{"error", "warning", "note"}, rule["defaultConfiguration"].(map[string]any)["level"])
	}
	assert.Equal(t, []string{"SGL901", "SGL902", "SGL903"}, ids)
	assert.Equal(t, "Finds a send that no readiness check guards.",
		rules[0].(map[string]any)["fullDescription"].(map[string]any)["text"])
	assert.Equal(t, "Exception swallowed", rules[1].(map[string]any)["fullDescription"].(map[string]any)["text"],
		"no section: the title")

	results := run["results"].([]any)
	require.Len(t, results, 4)
	hashes := map[string]bool{}
	for _, r := range results {
		res := r.(map[string]any)
		idx := int(res["ruleIndex"].(float64))
		assert.Equal(t, ids[idx], res["ruleId"])
		assert.NotEmpty(t, res["message"].(map[string]any)["text"])
		loc := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		uri := loc["artifactLocation"].(map[string]any)["uri"].(string)
		assert.False(t, strings.HasPrefix(uri, "/"), "relative uri: %s", uri)
		region := loc["region"].(map[string]any)
		for _, k := range []string{"startLine", "startColumn", "endLine", "endColumn"} {
			assert.Contains(t, region, k)
		}
		h := res["partialFingerprints"].(map[string]any)["primaryLocationLineHash"].(string)
		assert.False(t, hashes[h], "fingerprints are unique: %s", h)
		hashes[h] = true
	}
	first, second := results[0].(map[string]any), results[1].(map[string]any)
	h1 := first["partialFingerprints"].(map[string]any)["primaryLocationLineHash"].(string)
	h2 := second["partialFingerprints"].(map[string]any)["primaryLocationLineHash"].(string)
	assert.True(t, strings.HasSuffix(h1, ":1") && strings.HasSuffix(h2, ":2"), "%s %s", h1, h2)
	assert.Equal(t, strings.TrimSuffix(h1, ":1"), strings.TrimSuffix(h2, ":2"), "identical lines share the hash")
	assert.Equal(t, "odd%20dir%2Cv2/na%C3%AFve%3A1.py",
		results[3].(map[string]any)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["artifactLocation"].(map[string]any)["uri"])
	rel := first["relatedLocations"].([]any)
	require.Len(t, rel, 2)
	assert.Equal(t, float64(1), rel[0].(map[string]any)["id"])

	inv := run["invocations"].([]any)[0].(map[string]any)
	assert.Equal(t, false, inv["executionSuccessful"], "an internal error happened")
	notes := inv["toolExecutionNotifications"].([]any)
	require.Len(t, notes, 3)
	assert.Equal(t, "internal error: rule SGL901 panicked: boom", notes[1].(map[string]any)["message"].(map[string]any)["text"])
	var levels []any
	for _, n := range notes {
		levels = append(levels, n.(map[string]any)["level"])
	}
	assert.Equal(t, []any{"error", "error", "note"}, levels)
}

// A path that could not be read fails the execution: the results do not
// cover everything asked for. A skipped file does not; a rule that could
// not run is a warning naming the rule.
func TestSARIFRecordsFailures(t *testing.T) {
	inv := func(r *Report) map[string]any {
		var log map[string]any
		require.NoError(t, json.Unmarshal(render(t, SARIF, r), &log))
		return log["runs"].([]any)[0].(map[string]any)["invocations"].([]any)[0].(map[string]any)
	}
	r := &Report{Tool: Tool{Name: "sglint"}, Problems: []analyzer.Problem{{Path: "./nonexistent", Message: "no such file or directory"}}}
	assert.Equal(t, false, inv(r)["executionSuccessful"])
	r.Problems = []analyzer.Problem{{Path: "blob.py", Warning: true, Message: "binary file"}}
	assert.Equal(t, true, inv(r)["executionSuccessful"])
	r.Problems = nil
	r.NotRun = []NotRun{{Rule: ruleIdle, Reason: "no records are loaded"}}
	got := inv(r)
	assert.Equal(t, true, got["executionSuccessful"])
	note := got["toolExecutionNotifications"].([]any)[0].(map[string]any)
	assert.Equal(t, "warning", note["level"])
	assert.Equal(t, "SGL903 (never-fires) did not run: no records are loaded", note["message"].(map[string]any)["text"])
	assert.Equal(t, map[string]any{"id": "SGL903"}, note["associatedRule"])
}

func TestSARIFEmptyHasResults(t *testing.T) {
	out := string(render(t, SARIF, &Report{Tool: Tool{Name: "sglint"}}))
	assert.Contains(t, out, `"results": []`)
	assert.Contains(t, out, `"rules": []`)
}

func TestSARIFFingerprintIgnoresLineNumber(t *testing.T) {
	r := sample()
	r.Diagnostics = r.Diagnostics[:1]
	before := string(render(t, SARIF, r))
	r.Diagnostics[0].Start.Line += 10
	r.Diagnostics[0].End.Line += 10
	r.Diagnostics[0].LineText = "\t" + strings.TrimSpace(r.Diagnostics[0].LineText) + "  "
	after := string(render(t, SARIF, r))
	hash := func(s string) string {
		_, rest, _ := strings.Cut(s, `"primaryLocationLineHash": "`)
		h, _, _ := strings.Cut(rest, `"`)
		return h
	}
	assert.NotEqual(t, before, after)
	assert.Equal(t, hash(before), hash(after))
}

func TestSARIFCodeFlowHook(t *testing.T) {
	r := sample()
	r.CodeFlow = func(d *analyzer.Diagnostic) []analyzer.Related {
		if d.Function == "MooncakeKVSender.send" {
			return d.Related
		}
		return nil
	}
	var log struct {
		Runs []struct {
			Results []struct {
				CodeFlows []struct {
					ThreadFlows []struct {
						Locations []struct {
							Location struct {
								Message struct{ Text string }
							}
						}
					}
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal(render(t, SARIF, r), &log))
	res := log.Runs[0].Results
	require.Len(t, res[0].CodeFlows, 1)
	steps := res[0].CodeFlows[0].ThreadFlows[0].Locations
	require.Len(t, steps, 3, "two steps, then the finding")
	assert.Equal(t, "entry point: MooncakeKVSender.send", steps[0].Location.Message.Text)
	assert.Empty(t, res[1].CodeFlows)

	// A chain that passes through the finding (it goes on to a raise) is
	// not ended with the finding again.
	d := &r.Diagnostics[0]
	d.Related = append(d.Related, analyzer.Related{Path: d.Path, Line: d.Start.Line, Column: d.Start.Column, Message: "calls helper"},
		analyzer.Related{Path: d.Path, Line: d.Start.Line + 5, Column: 9, Message: "raises"})
	require.NoError(t, json.Unmarshal(render(t, SARIF, r), &log))
	steps = log.Runs[0].Results[0].CodeFlows[0].ThreadFlows[0].Locations
	require.Len(t, steps, 4)
	assert.Equal(t, "calls helper", steps[2].Location.Message.Text)
	assert.Equal(t, "raises", steps[3].Location.Message.Text)
}

func TestArtifactURIs(t *testing.T) {
	assert.Equal(t, sarifArtifactLocation{URI: "a/b.py", URIBaseID: "%SRCROOT%"}, artifact("a/b.py"))
	assert.Equal(t, sarifArtifactLocation{URI: "../x/b.py", URIBaseID: "%SRCROOT%"}, artifact("../x/b.py"))
	assert.Equal(t, sarifArtifactLocation{URI: "file:///tmp/a%20b.py"}, artifact("/tmp/a b.py"))
	assert.Equal(t, "file:///home/u/repo/", dirURI("/home/u/repo"))
}
