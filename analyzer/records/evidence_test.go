package records

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sglint/sglint/analyzer/syntax"
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

// A template must hold at least half of the words the record's pattern
// requires literally: a hole absorbs the record's text and the pattern's
// `.*` the template's, so a match alone says nothing of templates that
// start and end with holes.
func TestWeakUnlessTheRecordsWordsAreThere(t *testing.T) {
	src := "def f(self, a, b, g, s, n, rid, ctx):\n" +
		"    assert a % b == 0, f\"{a} must be divisible by {b}\"\n" +
		"    assert s == g, f\"First message should be {g}. Foreign traffic?\"\n" +
		"    raise RuntimeError(f\"{ctx} expected 2D positions, got shape={s}.\")\n" +
		"    raise RuntimeError(f\"Pool alloc failed for {n} tokens in prealloc (req {rid})\")\n" +
		"    raise RuntimeError(f\"Transfer thread failed because of {ctx}. Prefill instance with port={n} is dead.\")\n"
	tree := syntaxtest.Parse(t, src)
	set := NewSet([]*Record{
		{ID: "guard", ErrorClass: "AssertionError", ErrorMessage: "First message should be b'G'. Foreign traffic?",
			MessagePattern: `First message should be .*\. Foreign traffic\?`},
		{ID: "dead", ErrorClass: "RuntimeError", ErrorMessage: "Transfer thread failed because of EOF. Prefill instance with port=1 is dead.",
			MessagePattern: `Transfer thread failed because of .+\. Prefill instance with port=\d+ is dead\.`},
		{ID: "pool", ErrorClass: "RuntimeError", ErrorMessage: "Pool alloc failed for 4096 tokens",
			MessagePattern: `Pool alloc failed for \d+ tokens.*`},
	})
	assert.Equal(t, []string{"3:guard", "5:pool", "6:dead"}, siteLines(tree, set.Find(tree)),
		"lines 2 and 4 match the patterns through holes but share no word with them")
	for _, r := range set.Records {
		r.FilePath = "python/sglang/srt/disaggregation/mooncake/conn.py"
	}
	assert.Equal(t, []string{"3:guard", "5:pool", "6:dead"}, siteLines(tree, set.FindIn(tree, "/src/sglang/srt/disaggregation/mooncake/conn.py")),
		"another message in the recorded file is still another message: the path pins weak templates, not foreign ones")
}

// An error class whose __str__ returns a message it builds raises that
// message, whatever the raise passes.
func TestStrBuiltMessages(t *testing.T) {
	src := "class RoomError(Exception):\n" +
		"    def __init__(self, room, reason):\n" +
		"        self.room, self.reason = room, reason\n" +
		"    def __str__(self):\n" +
		"        return f\"RoomError(room={self.room}): {self.reason}\"\n" +
		"class PlainError(Exception):\n" +
		"    pass\n" +
		"def f(room, reason):\n" +
		"    raise RoomError(room, reason)\n" +
		"    raise PlainError(f\"RoomError(room={room}): {reason}\")\n" +
		"    raise PlainError(room, reason)\n"
	tree := syntaxtest.Parse(t, src)
	set := NewSet([]*Record{
		{ID: "room", ErrorClass: "RoomError", MessagePattern: `RoomError\(room=\d+\): .*`},
		{ID: "plain", ErrorClass: "PlainError", MessagePattern: `RoomError\(room=\d+\): .*`},
	})
	assert.Equal(t, []string{"9:room", "10:plain"}, siteLines(tree, set.Find(tree)), "a class without __str__ raises its first argument")
}

// siteLines are "line:record" of each site, in order.
func siteLines(t *syntax.Tree, sites []Site) []string {
	var out []string
	for _, s := range sites {
		out = append(out, fmt.Sprintf("%d:%s", t.Start(s.Stmt).Line, s.Record.ID))
	}
	return out
}
