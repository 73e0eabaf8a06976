package output

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer"
)

// The messages of the shipped rules share a shape: what is wrong, why, the
// record, the fix. splitMessage cuts them so that nothing is lost.
func TestSplitMessage(t *testing.T) {
	rule := &analyzer.Rule{ID: "SGL001", Title: "KV send path uses registration state without checking it is non-empty"}
	for _, tc := range []struct {
		name, msg, record string
		want              parts
	}{
		{"short, alone", "syntax error: unexpected `=`", "", parts{heading: "syntax error: unexpected `=`"}},
		{"asides leave the heading",
			"`src` (an alias of `self.kv_mem_descs`) may be empty here (nothing registered on this rank: it is filled by `M._register`); " +
				"it is returned unchecked to the send path, where a loop over it runs zero times: the send moves no KV and still reports success. " +
				"Check it first and skip the KV send, as `send_state` does (record 795554d942550d42)",
			"795554d942550d42",
			parts{heading: "`src` may be empty here",
				why: "`src` (an alias of `self.kv_mem_descs`) may be empty here (nothing registered on this rank: it is filled by `M._register`); " +
					"it is returned unchecked to the send path, where a loop over it runs zero times: the send moves no KV and still reports success",
				help: "Check it first and skip the KV send, as `send_state` does"}},
		{"record before the fix",
			"`info` is published before it is fully initialised: it goes into `self.table`, which send path `M.worker` reads from another thread, " +
				"and then `info.kind` is still assigned (record d0bf6111ca6909b6). Prepare `info` completely first and store it last",
			"d0bf6111ca6909b6",
			parts{heading: "`info` is published before it is fully initialised",
				why:  "it goes into `self.table`, which send path `M.worker` reads from another thread, and then `info.kind` is still assigned",
				help: "Prepare `info` completely first and store it last"}},
		{"cut before the condition", "`self.decode_kv_args_table[req.mooncake_session_id]` raises KeyError when `req.mooncake_session_id` " +
			"was never added to the table or was removed, and nothing checks that it is there; the handler raises again",
			"",
			parts{heading: "`self.decode_kv_args_table[req.mooncake_session_id]` raises KeyError",
				why: "`self.decode_kv_args_table[req.mooncake_session_id]` raises KeyError when `req.mooncake_session_id` " +
					"was never added to the table or was removed, and nothing checks that it is there; the handler raises again"}},
		{"hint", "RuntimeError(\"No plan for peer …\") from `M._plan_for` can escape send entry `M.send_aux` through this call when " +
			"`info.plan is None`: no check on the way excludes it (record e0a1 no-plan); hint: Check that the peer's plan exists",
			"e0a1",
			parts{heading: "RuntimeError from `M._plan_for` can escape send entry `M.send_aux` through this call",
				why: "RuntimeError(\"No plan for peer …\") from `M._plan_for` can escape send entry `M.send_aux` through this call when " +
					"`info.plan is None`: no check on the way excludes it",
				help: "Check that the peer's plan exists"}},
		{"a cut before ', which' leaves no comma",
			"`handler.is_staging_room` raises AttributeError when `handler` (bound to `self._staging_handler`) is None, which the " +
				"record's validationCode checks is not None before its raise; nothing in thread target `M.t` checks it",
			"",
			parts{heading: "`handler.is_staging_room` raises AttributeError when `handler` is None",
				why: "`handler.is_staging_room` raises AttributeError when `handler` (bound to `self._staging_handler`) is None, which the " +
					"record's validationCode checks is not None before its raise; nothing in thread target `M.t` checks it"}},
		{"separators inside code do not cut", "`a; b: c. D` is wrong here: " + strings.Repeat("more words ", 10) + "end",
			"", parts{heading: "`a; b: c. D` is wrong here", why: strings.Repeat("more words ", 10) + "end"}},
		{"no shape: the title, and the message whole", strings.Repeat("words ", 20) + "end",
			"", parts{heading: rule.Title, why: strings.Repeat("words ", 20) + "end"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := splitMessage(&analyzer.Diagnostic{Rule: rule, Message: tc.msg, Record: tc.record})
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestFrame(t *testing.T) {
	d := &analyzer.Diagnostic{Start: pos(1, 5), End: pos(1, 8), LineText: "\tx = foo(1)\n"}
	src, caret := frame(d)
	assert.Equal(t, "    x = foo(1)", src, "a tab shows as four spaces")
	assert.Equal(t, "       ^^^", caret, "columns count the tab once, the caret follows what is shown")

	d = &analyzer.Diagnostic{Start: pos(1, 3), End: pos(3, 1), LineText: "é = (1,"}
	_, caret = frame(d)
	assert.Equal(t, "  ^^^^^", caret, "a span that goes on is underlined to the end of the line")

	d = &analyzer.Diagnostic{Start: pos(1, 8), End: pos(1, 8), LineText: "def f()"}
	_, caret = frame(d)
	assert.Equal(t, "       ^", caret, "an empty span after the last column still gets its caret")

	d = &analyzer.Diagnostic{Start: pos(1, 2), End: pos(1, 3), LineText: "a\xffb"}
	src, caret = frame(d)
	assert.Equal(t, "a\uFFFDb", src)
	assert.Equal(t, " ^", caret)
}

// Whatever the message, cutting it neither panics nor loses a word: every
// word but the record citation is in the heading, the why or the help.
func FuzzSplitMessage(f *testing.F) {
	for _, s := range []string{
		"syntax error: unexpected `=`",
		"`a` (b (c) `)`) may be: x; y. Z (record R1 slug); hint: Do it",
		"RuntimeError(\"x (y\") from `f` can escape: no check. Fix it",
		"(record R1) ((( `unclosed",
		strings.Repeat("word ", 40) + ". Then",
		"",
	} {
		f.Add(s, "R1")
	}
	rule := &analyzer.Rule{ID: "SGL001", Title: "the title"}
	f.Fuzz(func(t *testing.T, msg, record string) {
		p := splitMessage(&analyzer.Diagnostic{Rule: rule, Message: msg, Record: record})
		kept := p.heading + " " + p.why + " " + p.help
		cited := dropCitation(oneLine(msg), record)
		if record == "" {
			cited = oneLine(msg)
		}
		for _, w := range strings.Fields(cited) {
			if w == "hint:" && strings.Contains(cited, "; hint: ") {
				continue // the help's label
			}
			if w = strings.Trim(w, ".;:,"); w != "" && !strings.Contains(kept, w) {
				t.Fatalf("%q lost %q: %+v", msg, w, p)
			}
		}
	})
}
