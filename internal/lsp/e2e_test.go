package lsp

import (
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildSglint builds the real binary from this repository.
func buildSglint(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sglint")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/sglint")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// envWithoutCacheDir is the environment without SGLINT_CACHE_DIR, so that
// the cache goes where a user's would.
func envWithoutCacheDir() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "SGLINT_CACHE_DIR=") })
}

// serverProcess starts `sglint server` on pipes, in dir.
func serverProcess(t *testing.T, bin, dir string) (*testClient, *exec.Cmd) {
	cmd := exec.Command(bin, "server")
	cmd.Dir = dir
	cmd.Env = envWithoutCacheDir()
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return newTestClient(t, stdin, stdout), cmd
}

// exitCode waits for the process to end.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		require.NoError(t, err)
		return 0
	case <-time.After(timeout):
		t.Fatal("the server did not exit")
	}
	return -1
}

// tree records every file under dir with a hash of its content, to show
// the server wrote nothing.
func tree(t *testing.T, dir string) map[string][32]byte {
	out := map[string][32]byte{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = sha256.Sum256(b)
		return err
	}))
	return out
}

// TestServerEndToEnd drives the real binary over pipes as editors do.
func TestServerEndToEnd(t *testing.T) {
	bin := buildSglint(t)
	t.Run("session", func(t *testing.T) { editingSession(t, bin) })
	t.Run("client dies", func(t *testing.T) { clientDies(t, bin) })
	t.Run("the checkout's cache", func(t *testing.T) { checkoutCache(t, bin) })
}

// checkoutCache: in a git checkout whose project is python/, the server
// reads the cache `sglint python` wrote (at the top of the checkout).
func checkoutCache(t *testing.T, bin string) {
	repo := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(repo, ".git"), 0o755))
	writeFiles(t, filepath.Join(repo, "python"), fixtureFiles())
	run := exec.Command(bin, "python")
	run.Dir = repo
	run.Env = envWithoutCacheDir()
	out, _ := run.CombinedOutput() // exit 1: the fixture has a finding
	require.DirExists(t, filepath.Join(repo, ".sglint_cache"), "%s", out)

	c, _ := serverProcess(t, bin, repo)
	c.initialize(repo)
	conn := c.open(filepath.Join(repo, "python", "pkg", "conn.py"), fixtureConn)
	require.Len(t, c.diagnostics(conn, 1).Diagnostics, 1)
	msg := c.logged("window/logMessage", "from the cache")
	m := regexp.MustCompile(`\((\d+) from the cache`).FindStringSubmatch(msg)
	require.NotNil(t, m, msg)
	assert.NotEqual(t, "0", m[1], msg)
}

// editingSession: the handshake, a finding in an opened file, its quick
// fix, the guard typed in that clears it, garbage on the wire, closing,
// shutdown and exit.
func editingSession(t *testing.T, bin string) {
	dir := fixtureProject(t)
	before := tree(t, dir)
	c, cmd := serverProcess(t, bin, dir)

	res := c.initialize(dir)
	assert.Equal(t, "sglint", res.ServerInfo.Name)
	assert.Equal(t, SyncIncremental, res.Capabilities.TextDocumentSync.Change)
	assert.Equal(t, []string{QuickFix}, res.Capabilities.CodeActionProvider.CodeActionKinds)
	c.wait("the file watchers' registration", func(m *rpcMessage) bool { return m.Method == "client/registerCapability" })

	conn := c.open(filepath.Join(dir, "pkg/conn.py"), fixtureConn)
	got := c.diagnostics(conn, 1)
	require.Len(t, got.Diagnostics, 1, c.transcript())
	d := got.Diagnostics[0]
	assert.Equal(t, "SGL004", d.Code)
	assert.Equal(t, "sglint", d.Source)
	assert.Equal(t, SeverityError, d.Severity)
	assert.Equal(t, Range{Position{11, 15}, Position{11, 36}}, d.Range)
	assert.Contains(t, d.Message, "`self.peer_infos[name]` raises KeyError")
	require.NotNil(t, d.CodeDescription)
	assert.True(t, strings.HasSuffix(d.CodeDescription.Href, "/rules/peerlookup/doc.md"), d.CodeDescription.Href)
	require.Len(t, d.RelatedInformation, 1)
	assert.Equal(t, Location{URI: conn, Range: Range{Position{8, 8}, Position{8, 8}}}, d.RelatedInformation[0].Location)

	raw, err := json.Marshal(d)
	require.NoError(t, err)
	resp := c.call("textDocument/codeAction", map[string]any{"textDocument": TextDocumentIdentifier{URI: conn},
		"range": d.Range, "context": map[string]any{"diagnostics": []json.RawMessage{raw}}})
	require.Nil(t, resp.Error)
	var actions []CodeAction
	require.NoError(t, json.Unmarshal(resp.Result, &actions))
	require.Len(t, actions, 1)
	require.Len(t, actions[0].Edit.DocumentChanges, 1)
	assert.Equal(t, []TextEdit{{Range: Range{Position{11, 36}, Position{11, 36}}, NewText: "  # noqa: SGL004"}},
		actions[0].Edit.DocumentChanges[0].Edits)

	// The guard, typed in as an incremental change.
	c.change(conn, 2, insertAt(11, 0, fixtureGuard))
	assert.Empty(t, c.diagnostics(conn, 2).Diagnostics)

	// Garbage: refused with JSON-RPC's parse error, and the server serves on.
	c.raw("Content-Length: 12\r\n\r\n{\"jsonrpc\": ")
	e := c.wait("a parse error", func(m *rpcMessage) bool { return m.Error != nil && m.Error.Code == -32700 })
	assert.Equal(t, "null", string(e.ID))
	c.raw("this is not a header\r\n\r\n")
	c.change(conn, 3, TextDocumentContentChangeEvent{Text: fixtureConn})
	assert.Len(t, c.diagnostics(conn, 3).Diagnostics, 1, "serving after garbage")

	c.notify("textDocument/didClose", DidCloseTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: conn}})
	assert.Empty(t, c.diagnostics(conn, -1).Diagnostics, "closing clears")

	resp = c.call("shutdown", nil)
	require.Nil(t, resp.Error)
	c.notify("exit", nil)
	assert.Equal(t, 0, exitCode(t, cmd))
	assert.Equal(t, before, tree(t, dir), "the server wrote no file (no cache either)")
}

// clientDies: a client that goes away without shutdown; the server sees
// its input end and exits 1, as the protocol says.
func clientDies(t *testing.T, bin string) {
	dir := fixtureProject(t)
	c, cmd := serverProcess(t, bin, dir)
	c.initialize(dir)
	conn := c.open(filepath.Join(dir, "pkg/conn.py"), fixtureConn)
	c.diagnostics(conn, 1)
	require.NoError(t, c.w.Close())
	assert.Equal(t, 1, exitCode(t, cmd))
}
