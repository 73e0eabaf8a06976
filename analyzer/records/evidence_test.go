package records

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A messagePattern that is the record's own message with regex characters
// in it is matched literally, with a note; a real pattern stays a pattern.
func TestLiteralMessagePattern(t *testing.T) {
	r := &Record{ID: "x", ErrorClass: "RuntimeError", ErrorMessage: "Staged write failed (ret=-1)",
		MessagePattern: "Staged write failed (ret=-1)"}
	r.compile()
	assert.True(t, r.MatchMessage("Staged write failed (ret=-1)"))
	assert.False(t, r.MatchMessage("Staged write failed ret=-1"))
	assert.Contains(t, r.PatternNote, "matched as literal text")

	p := &Record{ID: "y", ErrorClass: "RuntimeError", ErrorMessage: "Staged write failed (ret=-1)",
		MessagePattern: `Staged write failed \(ret=-?\d+\)`}
	p.compile()
	assert.True(t, p.MatchMessage("Staged write failed (ret=-5)"))
	assert.Empty(t, p.PatternNote)
}

// The data set's .txt envelopes load from a directory; another .txt (a
// README) is not a record file.
func TestTxtEnvelopes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	write("a1.txt", `{"datasetVersion": "v1", "record": {"id": "a1", "errorClass": "RuntimeError", "messagePattern": "boom"}}`)
	write("README.txt", "These are records.\n")
	write("b2.json", `{"id": "b2", "errorClass": "ValueError", "messagePattern": "bad"}`)
	s, err := Load(dir)
	require.NoError(t, err)
	require.Equal(t, 2, s.Len())
	assert.Equal(t, "v1", s.Lookup("a1").DatasetVersion)
	assert.NotNil(t, s.Lookup("b2"))
}

// A message with too little literal text is a site only when the record's
// own evidence pins it: its filePath, or its sourceCode around the site.
func TestWeakTemplatesNeedEvidence(t *testing.T) {
	src := "def send(self, ctx, err):\n" +
		"    peer = self.peers.get(ctx)\n" +
		"    if peer is None or peer.kind is None:\n" +
		"        raise RuntimeError(f\"{ctx}: {err}\")\n" +
		"    raise RuntimeError(\"Missing NIXL destination: KV memory kind\")\n"
	tree := syntaxtest.Parse(t, src)
	rec := &Record{ID: "r", ErrorClass: "RuntimeError", ErrorMessage: "Missing NIXL destination: KV memory kind",
		MessagePattern: "Missing .*: .*", FilePath: "python/sglang/srt/disaggregation/nixl/conn.py"}
	lines := func(ss []Site) []int {
		var out []int
		for _, s := range ss {
			out = append(out, tree.Start(s.Stmt).Line)
		}
		return out
	}
	set := NewSet([]*Record{rec})
	assert.Equal(t, []int{5}, lines(set.Find(tree)), "the placeholder message alone is not a site")
	assert.Equal(t, []int{5}, lines(set.FindIn(tree, "/src/other/conn.py")), "one shared component is not enough")
	pinned := set.FindIn(tree, "/src/sglang/srt/disaggregation/nixl/conn.py")
	require.Equal(t, []int{4, 5}, lines(pinned), "the recorded file pins it")
	assert.True(t, pinned[0].Evidence.Weak)
	assert.Equal(t, 5, pinned[0].Evidence.Path)

	snip := &Record{ID: "s", ErrorClass: "RuntimeError", ErrorMessage: rec.ErrorMessage, MessagePattern: rec.MessagePattern,
		SourceCode: "    peer = self.peers.get(ctx)\n    if peer is None or peer.kind is None:\n        raise RuntimeError(f\"{ctx}: {err}\")\n"}
	got := NewSet([]*Record{snip}).FindIn(tree, "/elsewhere/x.py")
	require.Equal(t, []int{4, 5}, lines(got), "three lines of the record's code around it pin it")
	assert.Equal(t, 3, got[0].Evidence.Snippet)
}
