package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawPeer drives a jsonrpc2 connection over the server's stream with raw
// bytes, and reads its frames with the tests' parser (readTestFrame).
type rawPeer struct {
	t        *testing.T
	w        io.WriteCloser
	r        *bufio.Reader
	conn     *jsonrpc2.Conn
	mu       sync.Mutex
	warnings []string
}

func newRawPeer(t *testing.T) *rawPeer {
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	p := &rawPeer{t: t, w: cw, r: bufio.NewReader(cr)}
	st := newStream(sr, sw, sr, func(msg string) {
		p.mu.Lock()
		p.warnings = append(p.warnings, msg)
		p.mu.Unlock()
	})
	// The handler answers each request with its method.
	p.conn = jsonrpc2.NewConn(context.Background(), st, jsonrpc2.HandlerWithError(
		func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) { return req.Method, nil }),
		jsonrpc2.SetLogger(testLogger{t}))
	t.Cleanup(func() { _ = p.conn.Close(); _ = cw.Close(); _ = cr.Close() })
	return p
}

type testLogger struct{ t *testing.T }

func (l testLogger) Printf(format string, v ...any) { l.t.Logf(format, v...) }

func (p *rawPeer) send(raw string) {
	_, err := io.WriteString(p.w, raw)
	require.NoError(p.t, err)
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// response reads the next frame as a response.
func (p *rawPeer) response() (id json.RawMessage, result string, code int) {
	p.t.Helper()
	type resp struct {
		ID     json.RawMessage `json:"id"`
		Result string          `json:"result"`
		Error  *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	done := make(chan resp, 1)
	go func() {
		body, err := readTestFrame(p.r)
		if err != nil {
			close(done)
			return
		}
		var r resp
		_ = json.Unmarshal(body, &r)
		done <- r
	}()
	select {
	case r, ok := <-done:
		require.True(p.t, ok, "the connection ended")
		if r.Error != nil {
			code = r.Error.Code
		}
		return r.ID, r.Result, code
	case <-time.After(10 * time.Second):
		p.t.Fatal("no response")
	}
	return nil, "", 0
}

func TestStreamSurvivesGarbage(t *testing.T) {
	p := newRawPeer(t)
	call := func(id int, method string) string {
		return frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q}`, id, method))
	}
	expect := func(wantID string, wantResult string, wantCode int) {
		t.Helper()
		id, result, code := p.response()
		assert.Equal(t, wantID, string(id))
		assert.Equal(t, wantResult, result)
		assert.Equal(t, wantCode, code)
	}

	p.send(call(1, "first"))
	expect("1", "first", 0)

	p.send(frame(`{oops`))
	expect("null", "", -32700)

	p.send("hello, this is not a header\r\n\r\n" + call(2, "after-garbage"))
	expect("2", "after-garbage", 0)

	p.send(frame(`{"jsonrpc":"2.0","id":3,"method":7}`))
	expect("3", "", -32600) // the id could be read: the error answers it

	p.send(frame(`[{"jsonrpc":"2.0","id":4,"method":"batch"}]`))
	expect("null", "", -32600)

	p.send(frame(`{"jsonrpc":"2.0","id":5,"method":"x"} trailing`))
	expect("null", "", -32700)

	p.send(frame(`{}`))
	expect("null", "", -32600)

	p.send("Content-Length: abc\r\n\r\n" + "Content-Length: 99999999999\r\n\r\n" + call(6, "after-bad-lengths"))
	expect("6", "after-bad-lengths", 0)

	body := `{"jsonrpc":"2.0","id":7,"method":"headers"}`
	p.send(fmt.Sprintf("content-length: %d\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n%s", len(body), body))
	expect("7", "headers", 0)

	p.send("\r\n" + strings.Repeat("x", 100_000) + "\r\n\r\n" + call(8, "after-long-line"))
	expect("8", "after-long-line", 0)

	p.mu.Lock()
	warnings := strings.Join(p.warnings, "\n")
	p.mu.Unlock()
	for _, w := range []string{"parse error", "not a header", "batches", "bad Content-Length"} {
		assert.Contains(t, warnings, w)
	}

	// A body cut short by the end of the input ends the connection.
	p.send("Content-Length: 50\r\n\r\n{\"jsonrpc\"")
	require.NoError(t, p.w.Close())
	select {
	case <-p.conn.DisconnectNotify():
	case <-time.After(10 * time.Second):
		t.Fatal("the connection outlived its input")
	}
}
