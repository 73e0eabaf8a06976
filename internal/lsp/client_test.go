package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// testClient is a language client for tests: it writes frames to the
// server, reads every frame the server sends, answers the server's own
// requests (client/registerCapability) with null, and lets a test wait for
// the message it expects.
type testClient struct {
	t       *testing.T
	w       io.WriteCloser
	wmu     sync.Mutex
	mu      sync.Mutex
	msgs    []*rpcMessage // received, not yet taken
	all     []*rpcMessage // every message received, in order
	eof     bool
	arrived chan struct{}
	nextID  int
}

type rpcMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
	at time.Time
}

// timeout bounds every wait; the server answers in milliseconds.
const timeout = 15 * time.Second

func newTestClient(t *testing.T, w io.WriteCloser, r io.Reader) *testClient {
	c := &testClient{t: t, w: w, arrived: make(chan struct{}, 1)}
	go c.read(bufio.NewReader(r))
	return c
}

func (c *testClient) read(r *bufio.Reader) {
	defer func() {
		c.mu.Lock()
		c.eof = true
		c.mu.Unlock()
		c.signal()
	}()
	for {
		body, err := readTestFrame(r)
		if err != nil {
			return
		}
		m := &rpcMessage{at: time.Now()}
		if err := json.Unmarshal(body, m); err != nil {
			c.t.Errorf("the server sent a frame that is not JSON: %q", body)
			continue
		}
		if m.Method != "" && len(m.ID) > 0 { // a request of the server's; it may be gone already
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
			_ = c.write(frame(string(b)))
		}
		c.mu.Lock()
		c.msgs = append(c.msgs, m)
		c.all = append(c.all, m)
		c.mu.Unlock()
		c.signal()
	}
}

// readTestFrame reads the next frame's body. It is the tests' own parser,
// not the server's stream, so that a framing bug of the server's shows
// rather than agreeing with itself.
func readTestFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" && length >= 0 {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

func (c *testClient) signal() {
	select {
	case c.arrived <- struct{}{}:
	default:
	}
}

func (c *testClient) raw(s string) {
	require.NoError(c.t, c.write(s))
}

func (c *testClient) write(s string) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := io.WriteString(c.w, s)
	return err
}

func (c *testClient) send(v any) {
	b, err := json.Marshal(v)
	require.NoError(c.t, err)
	c.raw(frame(string(b)))
}

func (c *testClient) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and waits for its response.
func (c *testClient) call(method string, params any) *rpcMessage {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return c.wait(fmt.Sprintf("the response to %s #%d", method, id), func(m *rpcMessage) bool {
		return m.Method == "" && string(m.ID) == strconv.Itoa(id)
	})
}

// wait takes the first message received that satisfies match.
func (c *testClient) wait(what string, match func(*rpcMessage) bool) *rpcMessage {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		c.mu.Lock()
		for i, m := range c.msgs {
			if match(m) {
				c.msgs = append(c.msgs[:i], c.msgs[i+1:]...)
				c.mu.Unlock()
				return m
			}
		}
		eof := c.eof
		c.mu.Unlock()
		if eof {
			c.t.Fatalf("the server closed its output while the test waited for %s", what)
		}
		select {
		case <-c.arrived:
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s; received: %s", what, c.transcript())
		}
	}
}

func (c *testClient) transcript() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, m := range c.all {
		fmt.Fprintf(&b, "\n  %s id=%s params=%s result=%s error=%v", m.Method, m.ID, clip(m.Params, 300), clip(m.Result, 300), m.Error)
	}
	return b.String()
}

// diagnostics waits for the diagnostics of uri at version (any version
// if version < 0).
func (c *testClient) diagnostics(uri string, version int) PublishDiagnosticsParams {
	c.t.Helper()
	var p PublishDiagnosticsParams
	c.wait(fmt.Sprintf("diagnostics of %s v%d", uri, version), func(m *rpcMessage) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var q PublishDiagnosticsParams
		if json.Unmarshal(m.Params, &q) != nil || q.URI != uri {
			return false
		}
		if version >= 0 && (q.Version == nil || *q.Version != version) {
			return false
		}
		p = q
		return true
	})
	return p
}

// logged waits for a window/logMessage or showMessage containing text.
func (c *testClient) logged(method, text string) string {
	c.t.Helper()
	var msg string
	c.wait(fmt.Sprintf("%s with %q", method, text), func(m *rpcMessage) bool {
		var p LogMessageParams
		if m.Method != method || json.Unmarshal(m.Params, &p) != nil || !strings.Contains(p.Message, text) {
			return false
		}
		msg = p.Message
		return true
	})
	return msg
}

// countLogged counts the window/logMessage notifications so far that
// contain text.
func (c *testClient) countLogged(text string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, m := range c.all {
		var p LogMessageParams
		if m.Method == "window/logMessage" && json.Unmarshal(m.Params, &p) == nil && strings.Contains(p.Message, text) {
			n++
		}
	}
	return n
}

// published lists every publishDiagnostics received for uri so far.
func (c *testClient) published(uri string) []PublishDiagnosticsParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []PublishDiagnosticsParams
	for _, m := range c.all {
		var q PublishDiagnosticsParams
		if m.Method == "textDocument/publishDiagnostics" && json.Unmarshal(m.Params, &q) == nil && q.URI == uri {
			out = append(out, q)
		}
	}
	return out
}

// initialize runs the handshake with the capabilities editors send.
func (c *testClient) initialize(root string) InitializeResult {
	c.t.Helper()
	caps := map[string]any{
		"workspace": map[string]any{
			"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
			"workspaceEdit":         map[string]any{"documentChanges": true},
		},
		"textDocument": map[string]any{
			"publishDiagnostics": map[string]any{"relatedInformation": true, "codeDescriptionSupport": true,
				"tagSupport": map[string]any{"valueSet": []int{1, 2}}},
			"codeAction": map[string]any{"codeActionLiteralSupport": map[string]any{}},
		},
	}
	resp := c.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": pathURI(root),
		"workspaceFolders": []WorkspaceFolder{{URI: pathURI(root), Name: "fixture"}}, "capabilities": caps,
		"clientInfo": map[string]any{"name": "sglint-test"}})
	require.Nil(c.t, resp.Error)
	var res InitializeResult
	require.NoError(c.t, json.Unmarshal(resp.Result, &res))
	c.notify("initialized", map[string]any{})
	return res
}

func (c *testClient) open(path, text string) string {
	uri := pathURI(path)
	c.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, LanguageID: "python", Version: 1, Text: text}})
	return uri
}

// watched tells the server that the file name under dir was created,
// changed or deleted (typ), as a client watching files for it does.
func (c *testClient) watched(dir, name string, typ int) {
	c.notify("workspace/didChangeWatchedFiles", DidChangeWatchedFilesParams{Changes: []FileEvent{
		{URI: pathURI(filepath.Join(dir, name)), Type: typ}}})
}

func (c *testClient) change(uri string, version int, changes ...TextDocumentContentChangeEvent) {
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument: VersionedTextDocumentIdentifier{URI: uri, Version: &version}, ContentChanges: changes})
}

// serve starts a server with the test options and initializes it on the
// project at dir.
func serve(t *testing.T, dir string) *testClient { return serveWith(t, dir, testOptions()) }

// serveWith is serve with the options opts.
func serveWith(t *testing.T, dir string, opts Options) *testClient {
	c, _ := startServer(t, opts)
	c.initialize(dir)
	return c
}

// startServer runs a server in this process, on pipes.
func startServer(t *testing.T, opts Options) (*testClient, <-chan int) {
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	codes := make(chan int, 1)
	go func() {
		codes <- Run(context.Background(), sr, sw, opts)
		_ = sw.Close()
	}()
	t.Cleanup(func() { _ = cw.Close(); _ = cr.Close() })
	return newTestClient(t, cw, cr), codes
}

// writeFiles writes a fixture project under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// The fixture: a sender whose send entry reads a peer table without a
// membership check (SGL004). It is a KV class through its base class, in
// another module: when that base no longer derives from BaseKVSender
// (fixtureBaseOff), the sender is out of the rules' scope.
const (
	fixtureBase = `class BaseKVSender:
    """What every sender derives from."""


class RingTransport(BaseKVSender):
    """The shared code of ring senders."""
`
	fixtureConn = `from pkg.base import RingTransport


class RingSender(RingTransport):
    def __init__(self):
        self.peer_infos = {}

    def add_peer(self, name, info):
        self.peer_infos[name] = info

    def send_chunk(self, name, chunk):
        info = self.peer_infos[name]
        return info.write(chunk)
`
	// fixtureGuard is inserted before line 12 (0-based 11): the check
	// that makes the lookup safe.
	fixtureGuard = "        if name not in self.peer_infos:\n            return None\n"
)

// fixtureFiles are the files of the fixture project.
func fixtureFiles() map[string]string {
	return map[string]string{
		"pyproject.toml":  "[tool.sglint]\nignore = []\n",
		"pkg/__init__.py": "",
		"pkg/base.py":     fixtureBase,
		"pkg/conn.py":     fixtureConn,
	}
}

func fixtureProject(t *testing.T) string {
	dir := t.TempDir()
	writeFiles(t, dir, fixtureFiles())
	return dir
}

// insertAt is an incremental change inserting text at a position.
func insertAt(line, char int, text string) TextDocumentContentChangeEvent {
	p := Position{Line: line, Character: char}
	return TextDocumentContentChangeEvent{Range: &Range{Start: p, End: p}, Text: text}
}
