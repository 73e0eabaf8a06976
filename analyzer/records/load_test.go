package records

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testdata = "../../testdata/records"

func TestLoadDirectoryAndJSONLines(t *testing.T) {
	set, err := Load(filepath.Join(testdata, "own"), filepath.Join(testdata, "jsonl", "records.jsonl"))
	require.NoError(t, err)
	var ids []string
	for _, r := range set.Records {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{
		"a1f0c0de00000001", "a1f0c0de00000002", "a1f0c0de00000003", "a1f0c0de00000004",
		"a1f0c0de00000005", "a1f0c0de00000006", "a1f0c0de00000007", "a1f0c0de00000008", "a1f0c0de0000000a",
	}, ids, "sorted by id, directory and JSON Lines together")
	assert.Len(t, set.Files, 8)

	r := set.Lookup("a1f0c0de00000002")
	require.NotNil(t, r)
	assert.Equal(t, "remote-window-not-registered", r.Slug)
	assert.Equal(t, "ValueError", r.ErrorClass)
	assert.Equal(t, "Remote window is not registered", r.MessagePattern)
	assert.Equal(t, "python/fixture/moved_away/plans.py", r.FilePath)
	assert.Equal(t, 45, r.LineNumber)
	assert.Equal(t, []string{"Check the peer is registered before sending, in every send entry"}, r.PreventionTips)
	assert.Equal(t, "Check the peer is registered before sending, in every send entry", r.FirstTip())
	assert.Equal(t, []string{"Register the window during the peer handshake"}, r.Solutions)
	assert.NotEmpty(t, r.Documentation)
	assert.NotEmpty(t, r.TriggerScenarios)
	assert.Equal(t, 0, r.Source.Line)

	// JSON Lines records know their line.
	r6 := set.Lookup("a1f0c0de00000006")
	require.NotNil(t, r6)
	assert.Equal(t, 1, r6.Source.Line)
	assert.Equal(t, 2, set.Lookup("a1f0c0de00000007").Source.Line)
	assert.True(t, strings.HasSuffix(set.Lookup("a1f0c0de00000007").Source.String(), "records.jsonl:2"))

	// An unknown extra field is accepted; lookup by slug works too.
	assert.Equal(t, "a1f0c0de00000003", set.Lookup("staging-slot-unavailable").ID)
	assert.Nil(t, set.Lookup("nope"))
}

func TestLoadMalformed(t *testing.T) {
	cases := []struct {
		file string
		want []string // substrings of the error
	}{
		{"missing-message-pattern.json", []string{"missing-message-pattern.json", "record a1f0c0de000000f1", "messagePattern", "missing"}},
		{"line-number-not-int.json", []string{"line-number-not-int.json", "lineNumber", "expected an integer", "a string"}},
		{"prevention-tips-not-list.json", []string{"prevention-tips-not-list.json", "preventionTips", "expected a list of strings, got a string"}},
		{"not-json.json", []string{"not-json.json", "not valid JSON"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			set, err := Load(filepath.Join(testdata, "malformed", c.file))
			require.Error(t, err)
			assert.Nil(t, set)
			var es Errors
			require.True(t, errors.As(err, &es))
			require.Len(t, es, 1, "%v", err)
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	// A directory reports every bad file at once, in name order.
	_, err := Load(filepath.Join(testdata, "malformed"))
	var es Errors
	require.True(t, errors.As(err, &es))
	require.Len(t, es, 4)
	assert.Contains(t, es[0].File, "line-number-not-int.json")
	assert.Equal(t, "lineNumber", es[0].Field)
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

func TestLoadShapes(t *testing.T) {
	dir := t.TempDir()
	bare := write(t, dir, "bare.json", `{"id": "b1", "errorClass": "KeyError", "messagePattern": "no key .*", "errorCode": null, "lineNumber": null, "solutions": null}`)
	arr := write(t, dir, "list.json", `[{"record": {"id": "l1", "errorClass": "ValueError", "messagePattern": "a"}}, {"id": "l2", "errorClass": "ValueError", "messagePattern": "b"}]`)
	lines := write(t, dir, "lines.json", "{\"id\": \"j1\", \"errorClass\": \"E\", \"messagePattern\": \"x\"}\n\n{\"id\": \"j2\", \"errorClass\": \"E\", \"messagePattern\": \"y\"}\n")
	set, err := Load(bare, arr, lines, bare) // bare twice: read once
	require.NoError(t, err)
	assert.Equal(t, 5, set.Len())
	assert.Equal(t, 3, set.Lookup("j2").Source.Line, "a .json file with several values is JSON Lines")
	assert.Equal(t, []string{bare, arr, lines}, set.Files)
	assert.Zero(t, set.Lookup("b1").LineNumber, "null is absent")
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, content string
		want          string
	}{
		{"dup.jsonl", "{\"id\": \"d\", \"errorClass\": \"E\", \"messagePattern\": \"x\"}\n{\"id\": \"d\", \"errorClass\": \"E\", \"messagePattern\": \"y\"}\n",
			"dup.jsonl:2: record d: id: duplicate record id (also in " + filepath.Join(dir, "dup.jsonl") + ":1)"},
		{"badline.jsonl", "{\"id\": \"ok\", \"errorClass\": \"E\", \"messagePattern\": \"x\"}\n{\"id\": \"bad\", \"errorClass\": \"E\", \n",
			"badline.jsonl:2: not valid JSON"},
		{"noid.json", `{"errorClass": "E", "messagePattern": "x"}`, `neither a record (no "id") nor a {"record": {...}} wrapper`},
		{"wrapper.json", `{"record": [1]}`, "record: expected an object, got a list"},
		{"class.json", `{"id": "c", "errorClass": "Runtime Error", "messagePattern": "x"}`, `record c: errorClass: want a Python class name such as RuntimeError, got "Runtime Error"`},
		{"emptyid.json", `{"id": " ", "errorClass": "E", "messagePattern": "x"}`, "id: empty (required)"},
		{"tips.json", `{"id": "t", "errorClass": "E", "messagePattern": "x", "preventionTips": ["a", 3]}`, "record t: preventionTips[1]: expected a string, got a number"},
		{"float.json", `{"id": "f", "errorClass": "E", "messagePattern": "x", "lineNumber": 1.5}`, "lineNumber: expected an integer, got 1.5"},
		{"scalar.json", `3`, "expected a record object, got a number"},
		{"empty.json", ``, "empty file"},
		{"arr.json", `[{"errorClass": "E"}]`, "record #1"},
		{"syntax.json", "{\n  \"id\": \"s\",\n  oops\n}", "not-json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := write(t, dir, c.name, c.content)
			_, err := Load(p)
			require.Error(t, err)
			if c.name == "syntax.json" {
				assert.Contains(t, err.Error(), "syntax.json:3: not valid JSON: invalid character 'o' looking for beginning of object key string (column 3)")
				return
			}
			assert.Contains(t, err.Error(), c.want)
		})
	}
	_, err := Load(filepath.Join(dir, "missing.json"))
	assert.ErrorContains(t, err, "missing.json: cannot read records: no such file or directory")
	empty := filepath.Join(dir, "emptydir")
	require.NoError(t, os.Mkdir(empty, 0o755))
	_, err = Load(empty)
	assert.ErrorContains(t, err, "no record files")

	// The same id in two files names both.
	a := write(t, dir, "a.json", `{"id": "same", "errorClass": "E", "messagePattern": "x"}`)
	b := write(t, dir, "b.json", `{"id": "same", "errorClass": "E", "messagePattern": "x"}`)
	_, err = Load(a, b)
	assert.ErrorContains(t, err, "b.json: record same: id: duplicate record id (also in "+a+")")
}

func TestHintScore(t *testing.T) {
	r := &Record{FilePath: "python/sglang/srt/disaggregation/mori/conn.py"}
	assert.Equal(t, 6, r.HintScore("/home/u/sglang/python/sglang/srt/disaggregation/mori/conn.py"))
	assert.Equal(t, 2, r.HintScore("mori/conn.py"))
	assert.Equal(t, 1, r.HintScore(`nixl\conn.py`))
	assert.Equal(t, 0, r.HintScore("mori/other.py"))
	assert.Equal(t, 0, (&Record{}).HintScore("conn.py"))
}
