package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/rules"
)

func testOptions() Options {
	return Options{Version: "v9.9.9-test", Rules: rules.All(), Jobs: 2, NoCache: true}
}

// codes lists the rule IDs of diagnostics.
func codes(ds []Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

func TestDiagnosticsFollowEditsAcrossFiles(t *testing.T) {
	dir := fixtureProject(t)
	c := serve(t, dir)
	conn := c.open(filepath.Join(dir, "pkg/conn.py"), fixtureConn)
	got := c.diagnostics(conn, 1)
	require.Equal(t, []string{"SGL004"}, codes(got.Diagnostics))
	d := got.Diagnostics[0]
	assert.Equal(t, Range{Position{11, 15}, Position{11, 36}}, d.Range)
	assert.Equal(t, SeverityError, d.Severity)
	assert.Equal(t, "sglint", d.Source)
	require.NotNil(t, d.CodeDescription)
	assert.Equal(t, "https://github.com/sglint/sglint/blob/v9.9.9-test/rules/peerlookup/doc.md", d.CodeDescription.Href)
	require.Len(t, d.RelatedInformation, 1)
	assert.Equal(t, conn, d.RelatedInformation[0].Location.URI)
	assert.Equal(t, Position{8, 8}, d.RelatedInformation[0].Location.Range.Start)

	// The base class is edited in another buffer, unsaved: the sender is no
	// KV class any more, and its diagnostics are published again although
	// its own text did not change.
	base := c.open(filepath.Join(dir, "pkg/base.py"), fixtureBase)
	assert.Empty(t, c.diagnostics(base, 1).Diagnostics)
	c.change(base, 2, TextDocumentContentChangeEvent{Range: &Range{Position{4, 20}, Position{4, 32}}, Text: "object"})
	assert.Empty(t, c.diagnostics(base, 2).Diagnostics)
	assert.Empty(t, c.diagnostics(conn, 1).Diagnostics, "conn.py sees the base class change")

	// Closing the buffer puts the file on disk back: the finding returns,
	// and the closed file's diagnostics are cleared.
	c.notify("textDocument/didClose", DidCloseTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: base}})
	assert.Empty(t, c.diagnostics(base, -1).Diagnostics)
	assert.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics))

	// The guard clears it.
	c.change(conn, 2, insertAt(11, 0, fixtureGuard))
	assert.Empty(t, c.diagnostics(conn, 2).Diagnostics)
}

func TestBurstOfChangesIsCheckedOnce(t *testing.T) {
	dir := fixtureProject(t)
	opts := testOptions()
	opts.Debounce = 300 * time.Millisecond
	c := serveWith(t, dir, opts)
	conn := c.open(filepath.Join(dir, "pkg/conn.py"), fixtureConn)
	require.Len(t, c.diagnostics(conn, 1).Diagnostics, 1)

	// The guard typed one character at a time: twenty-odd changes in a few
	// milliseconds, one check, for the last version.
	version, line, col := 1, 11, 0
	for _, ch := range fixtureGuard {
		version++
		c.change(conn, version, insertAt(line, col, string(ch)))
		if ch == '\n' {
			line, col = line+1, 0
		} else {
			col++
		}
	}
	assert.Empty(t, c.diagnostics(conn, version).Diagnostics)
	time.Sleep(2 * opts.Debounce)
	var versions []int
	for _, p := range c.published(conn) {
		versions = append(versions, *p.Version)
	}
	assert.Equal(t, []int{1, version}, versions)
	// A stale check is never published, so the versions alone would not
	// show extra checks: the open's and the burst's are the only ones.
	assert.Equal(t, 2, c.countLogged("checked in "), c.transcript())
}

func TestQuickFixAddsNoqaToTheLine(t *testing.T) {
	dir := fixtureProject(t)
	// With the cache on, so that the check below that none is written
	// can fail.
	t.Setenv("SGLINT_CACHE_DIR", "")
	opts := testOptions()
	opts.NoCache = false
	c := serveWith(t, dir, opts)
	// CRLF line ends and an emoji before the finding on its line: the
	// range counts UTF-16 units, the edit keeps the line ending.
	text := strings.ReplaceAll(strings.Replace(fixtureConn, "        info = self.peer_infos[name]",
		"        tag = \"😀\"; info = self.peer_infos[name]", 1), "\n", "\r\n")
	conn := c.open(filepath.Join(dir, "pkg/conn.py"), text)
	got := c.diagnostics(conn, 1)
	require.Len(t, got.Diagnostics, 1)
	// 26 code points before the subscript, one of them the emoji.
	assert.Equal(t, Range{Position{11, 27}, Position{11, 48}}, got.Diagnostics[0].Range, "the emoji is two units")

	raw, err := json.Marshal(got.Diagnostics[0])
	require.NoError(t, err)
	resp := c.call("textDocument/codeAction", map[string]any{
		"textDocument": TextDocumentIdentifier{URI: conn}, "range": got.Diagnostics[0].Range,
		"context": map[string]any{"diagnostics": []json.RawMessage{raw,
			json.RawMessage(`{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"source":"other","code":42,"message":"not ours"}`)}},
	})
	require.Nil(t, resp.Error)
	var actions []CodeAction
	require.NoError(t, json.Unmarshal(resp.Result, &actions))
	require.Len(t, actions, 1, "one action, for sglint's diagnostic only")
	a := actions[0]
	assert.Equal(t, QuickFix, a.Kind)
	assert.Equal(t, "Suppress SGL004 on this line (# noqa: SGL004)", a.Title)
	require.Len(t, a.Edit.DocumentChanges, 1)
	assert.Equal(t, 1, *a.Edit.DocumentChanges[0].TextDocument.Version)
	edits := a.Edit.DocumentChanges[0].Edits
	require.Len(t, edits, 1)
	assert.Equal(t, TextEdit{Range: Range{Position{11, 48}, Position{11, 48}}, NewText: "  # noqa: SGL004"}, edits[0])

	// Applied by the client, the edit silences the finding.
	c.change(conn, 2, TextDocumentContentChangeEvent{Range: &edits[0].Range, Text: edits[0].NewText})
	assert.Empty(t, c.diagnostics(conn, 2).Diagnostics)
	_, err = os.Stat(filepath.Join(dir, ".sglint_cache"))
	assert.True(t, os.IsNotExist(err))
	b, err := os.ReadFile(filepath.Join(dir, "pkg/conn.py"))
	require.NoError(t, err)
	assert.Equal(t, fixtureConn, string(b), "the server writes no file")
}

func TestSettingsReloadWhenTheirFileChanges(t *testing.T) {
	dir := fixtureProject(t)
	c := serve(t, dir)
	conn := c.open(filepath.Join(dir, "pkg/conn.py"), fixtureConn)
	require.Len(t, c.diagnostics(conn, 1).Diagnostics, 1)

	writeFiles(t, dir, map[string]string{"pyproject.toml": "[tool.sglint]\nignore = [\"SGL004\"]\n"})
	c.watched(dir, "pyproject.toml", FileChanged)
	assert.Empty(t, c.diagnostics(conn, 1).Diagnostics)

	// Settings that do not load are shown, and the previous ones kept.
	writeFiles(t, dir, map[string]string{"pyproject.toml": "[tool.sglint]\nignore = [\"SGL004\"]\nselct = []\n"})
	c.watched(dir, "pyproject.toml", FileChanged)
	msg := c.logged("window/showMessage", "selct")
	assert.Contains(t, msg, "keeping the previous settings")

	// per-file-ignores apply to the open file as on the command line.
	writeFiles(t, dir, map[string]string{"pyproject.toml": "[tool.sglint]\n[tool.sglint.per-file-ignores]\n\"pkg/base.py\" = [\"SGL004\"]\n"})
	c.watched(dir, "pyproject.toml", FileChanged)
	assert.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics))
	writeFiles(t, dir, map[string]string{"pyproject.toml": "[tool.sglint]\n[tool.sglint.per-file-ignores]\n\"pkg/conn.py\" = [\"SGL004\"]\n"})
	c.watched(dir, "pyproject.toml", FileChanged)
	assert.Empty(t, c.diagnostics(conn, 1).Diagnostics)

	// A client that does not watch files: the settings file saved in the
	// editor. SGL100 turned on reports the noqa that suppresses nothing,
	// tagged Unnecessary.
	settings := pathURI(filepath.Join(dir, "pyproject.toml"))
	c.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: settings, LanguageID: "toml", Version: 1, Text: ""}})
	writeFiles(t, dir, map[string]string{"pyproject.toml": "[tool.sglint]\nextend-select = [\"SGL100\"]\n"})
	c.notify("textDocument/didSave", DidSaveTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: settings}})
	assert.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics))
	c.change(conn, 2, insertAt(0, 0, "import os  # noqa: SGL002\n"))
	got := c.diagnostics(conn, 2).Diagnostics
	require.Equal(t, []string{"SGL100", "SGL004"}, codes(got))
	assert.Equal(t, []int{TagUnnecessary}, got[0].Tags)
	assert.Equal(t, SeverityWarning, got[0].Severity)
	assert.Nil(t, got[1].Tags)
}

func TestFilesChangedOnDisk(t *testing.T) {
	dir := fixtureProject(t)
	c := serve(t, dir)
	conn := c.open(filepath.Join(dir, "pkg/conn.py"), fixtureConn)
	require.Len(t, c.diagnostics(conn, 1).Diagnostics, 1)

	// A closed file changed by another program (a checkout) is read again.
	writeFiles(t, dir, map[string]string{"pkg/base.py": "class RingTransport(object):\n    pass\n"})
	c.watched(dir, "pkg/base.py", FileChanged)
	assert.Empty(t, c.diagnostics(conn, 1).Diagnostics)

	// A file created on disk joins the project.
	writeFiles(t, dir, map[string]string{"pkg/kv.py": fixtureBase})
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pkg/base.py"), []byte("from pkg.kv import RingTransport\n"), 0o644))
	c.watched(dir, "pkg/kv.py", FileCreated)
	c.watched(dir, "pkg/base.py", FileChanged)
	assert.Len(t, c.diagnostics(conn, 1).Diagnostics, 1)

	// And leaves it when deleted.
	require.NoError(t, os.Remove(filepath.Join(dir, "pkg/kv.py")))
	c.watched(dir, "pkg/kv.py", FileDeleted)
	assert.Empty(t, c.diagnostics(conn, 1).Diagnostics)
}

func TestBrokenCodeAndPanickingRules(t *testing.T) {
	dir := fixtureProject(t)
	opts := testOptions()
	boom := &analyzer.Rule{ID: "SGL999", Name: "always-panics", Title: "Panics", Doc: "Panics.",
		Run: func(p *analyzer.Pass) error {
			if strings.HasSuffix(p.File.Path, "conn.py") {
				panic("boom")
			}
			return nil
		}}
	opts.Rules = append(append([]*analyzer.Rule{}, opts.Rules...), boom)
	c := serveWith(t, dir, opts)
	conn := c.open(filepath.Join(dir, "pkg/conn.py"), fixtureConn)
	// The other rules' findings are published, and the panic is logged as
	// a bug, once.
	assert.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics))
	assert.Contains(t, c.logged("window/logMessage", "rule SGL999 panicked: boom"), "a bug in sglint")

	// Half-typed code: a syntax error, and the server goes on.
	half := strings.Replace(fixtureConn, "        return info.write(chunk)\n", "        return info.write(chunk\n    def send_more(self, x", 1)
	c.change(conn, 2, TextDocumentContentChangeEvent{Text: half})
	got := codes(c.diagnostics(conn, 2).Diagnostics)
	assert.Contains(t, got, "SGL000")

	// Bytes that are not text, and a document that is not a file.
	c.change(conn, 3, TextDocumentContentChangeEvent{Text: "x = 1\x00\xff\n"})
	assert.Empty(t, c.diagnostics(conn, 3).Diagnostics)
	assert.Contains(t, c.logged("window/logMessage", "binary file"), "skipped")
	c.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: "untitled:Untitled-1", LanguageID: "python", Version: 1, Text: "x ="}})
	c.logged("window/logMessage", "not a file on disk")

	c.change(conn, 4, TextDocumentContentChangeEvent{Text: fixtureConn})
	assert.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 4).Diagnostics))
}

func TestLifecycleErrors(t *testing.T) {
	dir := fixtureProject(t)
	c, codesCh := startServer(t, testOptions())
	resp := c.call("textDocument/codeAction", map[string]any{})
	require.NotNil(t, resp.Error)
	assert.Equal(t, codeServerNotInitialized, resp.Error.Code)

	res := c.initialize(dir)
	assert.Equal(t, SyncIncremental, res.Capabilities.TextDocumentSync.Change)
	assert.Equal(t, "utf-16", res.Capabilities.PositionEncoding)
	assert.Equal(t, "sglint", res.ServerInfo.Name)
	c.wait("client/registerCapability", func(m *rpcMessage) bool { return m.Method == "client/registerCapability" })

	resp = c.call("initialize", map[string]any{"capabilities": map[string]any{}})
	require.NotNil(t, resp.Error)
	assert.Equal(t, -32600, resp.Error.Code)
	resp = c.call("textDocument/hover", map[string]any{})
	require.NotNil(t, resp.Error)
	assert.Equal(t, -32601, resp.Error.Code)
	resp = c.call("textDocument/codeAction", "not an object")
	require.NotNil(t, resp.Error)
	assert.Equal(t, -32602, resp.Error.Code)
	c.notify("textDocument/didOpen", []int{1, 2})
	c.logged("window/logMessage", "invalid params")

	resp = c.call("shutdown", nil)
	assert.Nil(t, resp.Error)
	assert.Equal(t, "null", string(resp.Result))
	resp = c.call("textDocument/codeAction", map[string]any{})
	require.NotNil(t, resp.Error)
	assert.Equal(t, -32600, resp.Error.Code, "after shutdown")
	c.notify("exit", nil)
	select {
	case code := <-codesCh:
		assert.Equal(t, 0, code)
	case <-time.After(timeout):
		t.Fatal("the server did not exit")
	}
}

func TestExitWithoutShutdownFails(t *testing.T) {
	c, codesCh := startServer(t, testOptions())
	c.initialize(t.TempDir())
	c.notify("exit", nil)
	select {
	case code := <-codesCh:
		assert.Equal(t, 1, code)
	case <-time.After(timeout):
		t.Fatal("the server did not exit")
	}
}

// Every registered rule's documentation link names a doc.md that exists.
func TestRuleDocLinksExist(t *testing.T) {
	for _, r := range rules.All() {
		dir := rulePackageDir(r)
		require.NotEmpty(t, dir, r.ID)
		_, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(dir), "doc.md"))
		assert.NoError(t, err, r.ID)
	}
	s := &Server{opts: Options{Version: "devel-abc+dirty"}}
	assert.Equal(t, "https://github.com/sglint/sglint/blob/main/rules/syntaxerror/doc.md", s.ruleDocURL(rules.All()[0]))
}

// A directory with its own settings file has its files selected by it when
// the project is walked, as on the command line: the nested file excludes
// the module that makes the sender a KV class, so the sender is out of
// scope, as `sglint --stdin-filename app/conn.py` finds. The same project
// without that exclude has the finding (the fixture works).
func TestNestedSettingsSelectTheirFiles(t *testing.T) {
	for _, tc := range []struct {
		nested string
		want   []string
	}{
		{"extend-exclude = []\n", []string{"SGL004"}},
		{"extend-exclude = [\"base.py\"]\n", []string{}},
	} {
		dir := appProject(t, map[string]string{"pkg/sglint.toml": tc.nested})
		c := serve(t, dir)
		conn := c.open(filepath.Join(dir, "app/conn.py"), fixtureConn)
		assert.Equal(t, tc.want, codes(c.diagnostics(conn, 1).Diagnostics), "pkg/sglint.toml: %s", tc.nested)
	}
}

// A nested settings file created, changed or removed on its own (no Python
// file created or deleted meanwhile) changes which files the project
// loads, as the next `sglint --stdin-filename` would.
func TestNestedSettingsChangedAlone(t *testing.T) {
	dir := appProject(t, nil)
	c := serve(t, dir)
	conn := c.open(filepath.Join(dir, "app/conn.py"), fixtureConn)
	require.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics))

	// Each step flips the outcome, so a notification the server ignored
	// leaves the last one and fails.
	writeFiles(t, dir, map[string]string{"pkg/sglint.toml": "extend-exclude = [\"base.py\"]\n"})
	c.watched(dir, "pkg/sglint.toml", FileCreated)
	assert.Empty(t, c.diagnostics(conn, 1).Diagnostics, "created: pkg/base.py is excluded")
	writeFiles(t, dir, map[string]string{"pkg/sglint.toml": "extend-exclude = [\"kv.py\"]\n"})
	c.watched(dir, "pkg/sglint.toml", FileChanged)
	assert.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics), "changed: pkg/base.py is back")
	writeFiles(t, dir, map[string]string{"pkg/sglint.toml": "extend-exclude = [\"base.py\"]\n"})
	c.watched(dir, "pkg/sglint.toml", FileChanged)
	assert.Empty(t, c.diagnostics(conn, 1).Diagnostics, "changed again: pkg/base.py is excluded")
	require.NoError(t, os.Remove(filepath.Join(dir, "pkg/sglint.toml")))
	c.watched(dir, "pkg/sglint.toml", FileDeleted)
	assert.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics), "deleted")
}

// An open document that a new settings file governs moves to that file's
// project, though another document located the project it was in.
func TestDocumentsMoveToTheirNewSettings(t *testing.T) {
	dir := appProject(t, nil)
	c := serve(t, dir)
	base := c.open(filepath.Join(dir, "pkg/base.py"), fixtureBase)
	c.diagnostics(base, 1) // checked alone first: the project's anchor
	conn := c.open(filepath.Join(dir, "app/conn.py"), fixtureConn)
	require.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics))
	writeFiles(t, dir, map[string]string{"app/sglint.toml": "ignore = [\"SGL004\"]\n"})
	c.watched(dir, "app/sglint.toml", FileCreated)
	assert.Empty(t, c.diagnostics(conn, 1).Diagnostics, "app/conn.py is checked under app/sglint.toml")
}

// A document that moves into a project already loaded (its nested
// settings file removed) is checked there with its text in the editor, not
// the file on disk: here the buffer has the unchecked lookup the saved file
// guards.
func TestDocumentsMoveWithTheirText(t *testing.T) {
	lines := strings.SplitAfter(fixtureConn, "\n")
	saved := strings.Join(lines[:11], "") + fixtureGuard + strings.Join(lines[11:], "")
	dir := appProject(t, map[string]string{"app/conn.py": saved, "app/sglint.toml": "ignore = [\"SGL004\"]\n"})
	c := serve(t, dir)
	c.open(filepath.Join(dir, "pkg/base.py"), fixtureBase) // loads the project app/conn.py moves to
	conn := c.open(filepath.Join(dir, "app/conn.py"), fixtureConn)
	require.Empty(t, c.diagnostics(conn, 1).Diagnostics, "SGL004 is ignored under app/sglint.toml")
	require.NoError(t, os.Remove(filepath.Join(dir, "app/sglint.toml")))
	c.watched(dir, "app/sglint.toml", FileDeleted)
	assert.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics), "the buffer is checked, not the guarded file")
}

// The root's settings select the files of the directories a nested
// project file does not govern: a project checked under app/sglint.toml
// walks pkg/ again when the root's pyproject.toml changes.
func TestRootSettingsReachANestedProject(t *testing.T) {
	dir := appProject(t, map[string]string{"app/sglint.toml": "ignore = []\n"})
	c := serve(t, dir)
	conn := c.open(filepath.Join(dir, "app/conn.py"), fixtureConn)
	require.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics))
	writeFiles(t, dir, map[string]string{"pyproject.toml": "[tool.sglint]\nextend-exclude = [\"base.py\"]\n"})
	c.watched(dir, "pyproject.toml", FileChanged)
	assert.Empty(t, c.diagnostics(conn, 1).Diagnostics, "pkg/base.py is excluded by the root's settings")
}

// Settings above the project's root select the files of the directories
// no nearer settings file governs: a project checked under app/sglint.toml
// walks pkg/ again when the sglint.toml above the root changes.
func TestSettingsAboveTheRootReachANestedProject(t *testing.T) {
	dir := appProject(t, map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n", "app/sglint.toml": "ignore = []\n"})
	top := filepath.Dir(dir)
	writeFiles(t, top, map[string]string{"sglint.toml": "ignore = []\n"})
	c := serve(t, dir)
	conn := c.open(filepath.Join(dir, "app/conn.py"), fixtureConn)
	require.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics))
	writeFiles(t, top, map[string]string{"sglint.toml": "extend-exclude = [\"base.py\"]\n"})
	c.watched(top, "sglint.toml", FileChanged)
	assert.Empty(t, c.diagnostics(conn, 1).Diagnostics, "pkg/base.py is excluded by the settings above the root")
}

// When the document a project was located from moves to another project,
// the project stays loaded for the documents still in it: its settings did
// not change.
func TestAnchorMovingOutKeepsItsProject(t *testing.T) {
	dir := appProject(t, nil)
	c := serve(t, dir)
	conn := c.open(filepath.Join(dir, "app/conn.py"), fixtureConn)
	require.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics)) // checked alone first: the project's anchor
	c.diagnostics(c.open(filepath.Join(dir, "pkg/base.py"), fixtureBase), 1)
	writeFiles(t, dir, map[string]string{"app/sglint.toml": "ignore = [\"SGL004\"]\n"})
	c.watched(dir, "app/sglint.toml", FileCreated)
	assert.Empty(t, c.diagnostics(conn, 1).Diagnostics)
	assert.Zero(t, c.countLogged("settings of"), "no project's settings changed")
	assert.Equal(t, 2, c.countLogged("loaded "), "the first project and app/sglint.toml's, once each")
}

// A directory deleted whole comes as one event: the open documents its
// settings file governed move to the settings above.
func TestDeletedDirectoryMovesItsDocuments(t *testing.T) {
	dir := appProject(t, map[string]string{"app/sglint.toml": "ignore = [\"SGL004\"]\n"})
	c := serve(t, dir)
	conn := c.open(filepath.Join(dir, "app/conn.py"), fixtureConn)
	require.Empty(t, c.diagnostics(conn, 1).Diagnostics)
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "app")))
	c.watched(dir, "app", FileDeleted)
	assert.Equal(t, []string{"SGL004"}, codes(c.diagnostics(conn, 1).Diagnostics), "checked under the root's settings")
	assert.Zero(t, c.countLogged("settings of"), "the project left with no document is closed, not reloaded")
}

// Settings that no longer load are kept, for which files the project
// loads as well as for how they are checked: a walk after a file is
// created still leaves out what the kept settings exclude.
func TestBrokenSettingsKeepTheirFileSelection(t *testing.T) {
	dir := appProject(t, map[string]string{"pyproject.toml": "[tool.sglint]\nextend-exclude = [\"base.py\"]\n"})
	c := serve(t, dir)
	conn := c.open(filepath.Join(dir, "app/conn.py"), fixtureConn)
	require.Empty(t, c.diagnostics(conn, 1).Diagnostics, "pkg/base.py is excluded")

	writeFiles(t, dir, map[string]string{"pyproject.toml": "[tool.sglint]\nextend-exclude = [\"base.py\"]\nselct = []\n"})
	c.watched(dir, "pyproject.toml", FileChanged)
	assert.Contains(t, c.logged("window/showMessage", "selct"), "keeping the previous settings")
	writeFiles(t, dir, map[string]string{"pkg/new.py": "X = 1\n"})
	c.watched(dir, "pkg/new.py", FileCreated)
	c.change(conn, 2, insertAt(0, 0, "\n"))
	assert.Empty(t, c.diagnostics(conn, 2).Diagnostics, "the kept settings still exclude pkg/base.py")
}

// appProject is the fixture project with the sender in app/ rather than
// beside its base in pkg/, so that settings under pkg/ select the base
// alone; files replace or add to it.
func appProject(t *testing.T, files map[string]string) string {
	dir := t.TempDir()
	all := fixtureFiles()
	delete(all, "pkg/conn.py")
	all["app/__init__.py"] = ""
	all["app/conn.py"] = fixtureConn
	for name, text := range files {
		all[name] = text
	}
	writeFiles(t, dir, all)
	return dir
}

// Without a working directory (removed under the server), no resolver can
// be made to look up each directory's settings: the settings in force
// select the files of the whole tree.
func TestWalkWithoutAWorkingDirectory(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"keep.py": "X = 1\n", "gen/made.py": "Y = 2\n", "build/t.py": "Z = 3\n"})
	gone := t.TempDir()
	t.Chdir(gone)
	require.NoError(t, os.Remove(gone))
	_, err := os.Getwd()
	require.Error(t, err, "the working directory is gone")

	cfg := config.Default(root)
	cfg.File = filepath.Join(root, "pyproject.toml")
	cfg.ExtendExclude = []string{"gen/**"}
	s := &Server{opts: testOptions()}
	opts := s.walkOptions(cfg)
	assert.Nil(t, opts.ScopeOf, "no per-directory settings")
	assert.False(t, opts.NoDefaultExcludes, "extend-exclude keeps the default excludes")

	files, problems := discover.Find([]string{root}, opts)
	require.Empty(t, problems)
	var found []string
	for _, f := range files {
		rel, err := filepath.Rel(root, f.Abs)
		require.NoError(t, err)
		found = append(found, filepath.ToSlash(rel))
	}
	assert.Equal(t, []string{"keep.py"}, found, "gen/ by the settings, build/ by the default excludes")
}
