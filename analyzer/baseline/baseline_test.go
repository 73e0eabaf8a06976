package baseline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/syntax"
)

// sendRule reports every call to a function named send.
var sendRule = &analyzer.Rule{
	ID: "SGL990", Name: "send-call", Title: "t", Doc: "d",
	Run: func(pass *analyzer.Pass) error {
		t := pass.File.Tree()
		for i := 0; i < t.Len(); i++ {
			n := syntax.NodeID(i)
			if t.Kind(n) == syntax.Call && t.TextIs(t.Field(n, syntax.FFunction), "send") {
				pass.Reportf(n, "call to send")
			}
		}
		return nil
	},
}

func run(t *testing.T, files map[string]string) []analyzer.Diagnostic {
	t.Helper()
	var in []checker.Input
	for p, src := range files {
		in = append(in, checker.Input{Path: p, Src: []byte(src), Report: true})
	}
	res := checker.Run(in, checker.Options{Rules: []*analyzer.Rule{sendRule}, Jobs: 1})
	require.Empty(t, res.Problems)
	return res.Diagnostics
}

const before = `class Conn:
    def push(self):
        send(1)
        send(1)

    def pull(self):
        send(2)

send(3)
`

// After: lines inserted above, push re-indented and re-spaced, one of the
// two identical calls in push removed, a new call in pull, a new function.
const after = `import os


class Conn:
    def push(self):
        if True:
            send( 1 )

    def pull(self):
        send(2)
        send(4)

    def other(self):
        send(2)

send(3)
`

func TestBaselineSurvivesEditsElsewhere(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	path := filepath.Join("sub", "baseline.json")
	require.NoError(t, os.Mkdir("sub", 0o755))

	f, err := Write(path, run(t, map[string]string{"pkg/conn.py": before}))
	require.NoError(t, err)
	assert.Equal(t, 4, f.Findings())
	require.Len(t, f.Entries, 3, "two identical findings share one entry")
	assert.Equal(t, Entry{Rule: "SGL990", Path: "../pkg/conn.py", Function: "Conn.push",
		LineHash: LineHash("send(1)"), Count: 2, Message: "call to send"}, f.Entries[2])

	b, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, f, b, "round trip")

	ds := run(t, map[string]string{"pkg/conn.py": after})
	out, err := b.Apply(ds, "sub", Scope{})
	require.NoError(t, err)
	assert.Len(t, out.Covered, 3, "send(1) in push, send(2) in pull, module-level send(3)")
	var kept []string
	for _, d := range out.Kept {
		kept = append(kept, d.Function+": "+strings.TrimSpace(d.LineText))
	}
	assert.Equal(t, []string{"Conn.pull: send(4)", "Conn.other: send(2)"}, kept,
		"new findings, including an old line in a new function")
	require.Len(t, out.Stale, 1)
	assert.Equal(t, "Conn.push", out.Stale[0].Function)
	assert.Equal(t, 1, out.Stale[0].Count, "one of the two send(1) is gone")
}

func TestApplyScope(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	b, err := Build(run(t, map[string]string{"a.py": "send(1)\n", "b.py": "send(1)\n"}), ".")
	require.NoError(t, err)

	// Only a.py checked and clean: b.py's entry is not stale.
	out, err := b.Apply(nil, ".", Scope{Paths: map[string]bool{"a.py": true}})
	require.NoError(t, err)
	require.Len(t, out.Stale, 1)
	assert.Equal(t, "a.py", out.Stale[0].Path)

	// The rule did not run: nothing is stale.
	out, err = b.Apply(nil, ".", Scope{Rules: map[string]bool{"SGL001": true}})
	require.NoError(t, err)
	assert.Empty(t, out.Stale)

	out, err = b.Apply(nil, ".", Scope{})
	require.NoError(t, err)
	assert.Len(t, out.Stale, 2)
	assert.Equal(t, "SGL990 a.py (line hash "+LineHash("send(1)")+") x1: call to send", out.Stale[0].String())
}

func TestMarshalDeterministic(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	files := map[string]string{"b.py": "send(1)\nsend(2)\n", "a.py": "def f():\n    send(3)\n"}
	first, err := Build(run(t, files), ".")
	require.NoError(t, err)
	for range 5 {
		again, err := Build(run(t, files), ".")
		require.NoError(t, err)
		require.Equal(t, string(first.Marshal()), string(again.Marshal()))
	}
	want := `{
  "version": 1,
  "entries": [
    {
      "rule": "SGL990",
      "path": "a.py",
      "function": "f",
      "line_hash": "` + LineHash("send(3)") + `",
      "count": 1,
      "message": "call to send"
    },
`
	assert.True(t, strings.HasPrefix(string(first.Marshal()), want), string(first.Marshal()))
	empty, err := Build(nil, ".")
	require.NoError(t, err)
	assert.Equal(t, "{\n  \"version\": 1,\n  \"entries\": []\n}\n", string(empty.Marshal()))
}

func TestLineHashNormalisesWhitespace(t *testing.T) {
	assert.Equal(t, LineHash("send(x, y)"), LineHash("\t  send(x,  y)  "))
	assert.Equal(t, LineHash("send(x, y)"), LineHash("send( x,y )"), "formatting does not matter")
	assert.NotEqual(t, LineHash("send(x, y)"), LineHash("send(y, x)"))
	assert.Len(t, LineHash(""), 16)
}

func TestParseErrors(t *testing.T) {
	h := LineHash("x")
	cases := map[string]string{
		"{\n  \"version\": 1,\n  \"entries\": [\n}":                                                             "b.json: not a baseline: line 4: invalid character '}' looking for beginning of value",
		`{"version": 2, "entries": []}`:                                                                         "b.json: baseline version 2 is not supported (want 1); rewrite it with --write-baseline",
		`{"version": 1, "entries": [], "extra": 1}`:                                                             `b.json: not a baseline: json: unknown field "extra"`,
		`{"version": 1, "entries": [{"rule": "SGL001", "path": "a.py", "line_hash": "zz", "count": 1}]}`:        `b.json: entry 0: line_hash "zz" is not 16 lowercase hex digits`,
		`{"version": 1, "entries": [{"rule": "SGL001", "path": "a.py", "line_hash": "` + h + `", "count": 0}]}`: "b.json: entry 0: count must be at least 1",
		`{"version": 1, "entries": [{"path": "a.py", "line_hash": "` + h + `", "count": 1}]}`:                   "b.json: entry 0: rule and path are required",
		`{"version": 1, "entries": [{"rule": "S", "path": "a", "line_hash": "` + h + `", "count": 1}, {"rule": "S", "path": "a", "line_hash": "` + h + `", "count": 2}]}`: "b.json: entry 1: duplicate of an earlier entry (same rule, path, function and line_hash)",
		`{"version": "1"}`: "b.json: not a baseline: line 1: json: cannot unmarshal string into Go struct field File.version of type int",
	}
	for data, want := range cases {
		_, err := Parse("b.json", []byte(data))
		assert.EqualError(t, err, want, data)
	}
	_, err := Read(filepath.Join(t.TempDir(), "missing.json"))
	assert.ErrorContains(t, err, "missing.json: cannot read baseline: no such file or directory")
}
