// Package lsp is `sglint server`: a Language Server Protocol server over
// standard input and output that publishes sglint's findings for the files
// open in an editor while they are edited, and offers a quick fix that adds
// `# noqa: SGLxxx` to a finding's line.
//
// Each open file belongs to the project `sglint --stdin-filename FILE`
// would load for it (the project root and the settings found by walking up
// from the file). A project is loaded once, from the cache when it has the
// files, into a checker.Session, and then kept: an edit replaces the one
// file in the session (unsaved text included), a change on disk reloads
// that file, and the rules run again on the open files of the project.
// One goroutine does all of that (worker.go); the connection's goroutine
// only records edits and answers requests, so a burst of changes becomes
// one check. The server never writes a file: the cache is only read.
package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Options configure a server.
type Options struct {
	Version string           // shown in serverInfo and used in rule doc links
	Rules   []*analyzer.Rule // every registered rule
	Jobs    int              // workers per check; <= 0 means the number of CPUs
	NoCache bool             // do not read the cache
	// Debounce is how long the server waits after a change for the next
	// one before checking; 0 means DefaultDebounce.
	Debounce time.Duration
	Stderr   io.Writer // for what cannot go to the client
}

// DefaultDebounce lets a burst of keystrokes arrive before a check starts,
// short enough to stay inside the 200 ms an editor user notices.
const DefaultDebounce = 30 * time.Millisecond

// maxWait bounds how long changes arriving without a pause postpone a check.
const maxWait = 400 * time.Millisecond

// Server states.
const (
	stateNew = iota
	stateRunning
	stateShutdown
)

// codeServerNotInitialized is the error code the protocol adds to
// JSON-RPC's for a request before initialize.
const codeServerNotInitialized = -32002

// Server is one connection's server.
type Server struct {
	opts Options
	conn *jsonrpc2.Conn

	mu      sync.Mutex // guards what the connection and the worker share, below
	state   int
	caps    ClientCapabilities
	docs    map[string]*document // open documents by absolute path
	pending *pending
	exit    chan int // the exit code, once

	wake chan struct{} // the worker has pending work (buffered, 1)

	parserMu sync.Mutex // guards parser, for code actions
	parser   *syntax.Parser

	// Owned by the worker goroutine.
	w *workerState
}

// document is an open text document.
type document struct {
	uri     string
	path    string // absolute, clean
	lang    string
	version int
	text    string
}

// Run serves one client on in and out until it exits or goes away, and
// returns the process's exit code: 0 after shutdown and exit, 1 when the
// client exits without shutdown or the input ends first (as the protocol
// says).
func Run(ctx context.Context, in io.Reader, out io.Writer, opts Options) int {
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.NumCPU()
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	s := &Server{opts: opts, docs: map[string]*document{}, pending: newPending(),
		exit: make(chan int, 1), wake: make(chan struct{}, 1)}
	s.w = newWorkerState()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	closer, _ := in.(io.Closer) // closing it ends the read loop when the client is done
	st := newStream(in, out, closer, func(msg string) { s.logf(MessageWarning, "%s", msg) })
	s.mu.Lock() // logf needs conn: nothing is read before it is set
	s.conn = jsonrpc2.NewConn(ctx, st, s, jsonrpc2.SetLogger(log.New(opts.Stderr, "sglint server: ", log.LstdFlags)))
	s.mu.Unlock()
	go s.work(ctx)

	var code int
	select {
	case code = <-s.exit:
	case <-s.conn.DisconnectNotify():
		s.mu.Lock()
		code = 1
		if s.state == stateShutdown {
			code = 0
		}
		s.mu.Unlock()
	case <-ctx.Done():
		code = 1
	}
	cancel()
	_ = s.conn.Close()
	return code
}

// Handle is the jsonrpc2 handler. It runs on the connection's read
// goroutine, one message at a time and in order, so edits apply in the
// order sent; nothing here waits for a check.
func (s *Server) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	defer func() {
		if v := recover(); v != nil {
			s.logf(MessageError, "internal error handling %s (a bug in sglint, please report it): %v\n%s", req.Method, v, debug.Stack())
			if !req.Notif {
				_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError,
					Message: fmt.Sprintf("internal error: %v", v)})
			}
		}
	}()
	result, err := s.dispatch(req)
	if req.Notif {
		if err != nil {
			s.logf(MessageWarning, "%s: %s", req.Method, err.Message)
		}
		return
	}
	if err != nil {
		_ = conn.ReplyWithError(ctx, req.ID, err)
		return
	}
	_ = conn.Reply(ctx, req.ID, result)
}

// dispatch handles one message; notifications' results are dropped.
func (s *Server) dispatch(req *jsonrpc2.Request) (any, *jsonrpc2.Error) {
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case req.Method == "exit":
		code := 1
		if state == stateShutdown {
			code = 0
		}
		select {
		case s.exit <- code:
		default:
		}
		return nil, nil
	case state == stateNew && req.Method != "initialize":
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "the server is not initialized"}
	case state == stateShutdown:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "the server is shut down"}
	}
	switch req.Method {
	case "initialize":
		if state != stateNew {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "initialize was already received"}
		}
		return answer(req, s.initialize)
	case "initialized":
		s.initialized()
	case "shutdown":
		s.mu.Lock()
		s.state = stateShutdown
		s.mu.Unlock()
		return nil, nil
	case "textDocument/didOpen":
		return nil, handle(req, s.didOpen)
	case "textDocument/didChange":
		return nil, handle(req, s.didChange)
	case "textDocument/didSave":
		return nil, handle(req, s.didSave)
	case "textDocument/didClose":
		return nil, handle(req, s.didClose)
	case "workspace/didChangeWatchedFiles":
		return nil, handle(req, s.didChangeWatchedFiles)
	case "workspace/didChangeWorkspaceFolders":
		// Not asked for (see initialize), but a client may send it:
		// projects are found from each document's path, not from the
		// folders, so it is only checked to be well formed.
		return nil, handle(req, func(DidChangeWorkspaceFoldersParams) {})
	case "textDocument/codeAction":
		return answer(req, s.codeAction)
	case "workspace/didChangeConfiguration", "$/cancelRequest", "$/setTrace":
		// Settings come from the projects' files; requests are answered
		// at once, so there is nothing to cancel.
	default:
		if !req.Notif {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
		}
	}
	return nil, nil
}

// answer decodes a request's params and returns f's result for them.
func answer[P, R any](req *jsonrpc2.Request, f func(P) R) (any, *jsonrpc2.Error) {
	var p P
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	return f(p), nil
}

// handle decodes a notification's params and passes them to f.
func handle[P any](req *jsonrpc2.Request, f func(P)) *jsonrpc2.Error {
	var p P
	if err := decode(req, &p); err != nil {
		return err
	}
	f(p)
	return nil
}

// decode reads a message's params into v.
func decode(req *jsonrpc2.Request, v any) *jsonrpc2.Error {
	if req.Params == nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: req.Method + ": missing params"}
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf("%s: invalid params: %v", req.Method, err)}
	}
	return nil
}

func (s *Server) initialize(p InitializeParams) InitializeResult {
	s.mu.Lock()
	s.state = stateRunning
	s.caps = p.Capabilities
	s.mu.Unlock()
	var names []string
	for _, f := range p.WorkspaceFolders {
		names = append(names, f.URI)
	}
	if len(names) == 0 && p.RootURI != nil && *p.RootURI != "" {
		names = []string{*p.RootURI}
	}
	client := "an unnamed client"
	if p.ClientInfo != nil {
		client = strings.TrimSpace(p.ClientInfo.Name + " " + p.ClientInfo.Version)
	}
	s.logf(MessageInfo, "sglint %s serving %s; workspace folders: %s", s.opts.Version, client, strings.Join(names, ", "))

	var res InitializeResult
	res.ServerInfo = ServerInfo{Name: "sglint", Version: s.opts.Version}
	c := &res.Capabilities
	c.PositionEncoding = "utf-16"
	c.TextDocumentSync.OpenClose = true
	c.TextDocumentSync.Change = SyncIncremental
	c.CodeActionProvider.CodeActionKinds = []string{QuickFix}
	// Any number of folders; their changes are not asked for, since
	// projects are found from each document's path.
	c.Workspace.WorkspaceFolders.Supported = true
	return res
}

// initialized asks the client to watch the files that change a project:
// its Python files and its settings. Without dynamic registration, the
// settings are reloaded when an open pyproject.toml or sglint.toml is saved.
func (s *Server) initialized() {
	s.mu.Lock()
	dynamic := s.caps.Workspace.DidChangeWatchedFiles.DynamicRegistration
	s.mu.Unlock()
	if !dynamic {
		s.logf(MessageLog, "the client cannot watch files for the server: settings are reloaded when a pyproject.toml or sglint.toml open in the editor is saved, and files changed outside the editor are read again only when opened")
		return
	}
	params := RegistrationParams{Registrations: []Registration{{
		ID: "sglint-watch", Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: DidChangeWatchedFilesRegistrationOptions{Watchers: []FileSystemWatcher{
			{GlobPattern: "**/*.py"}, {GlobPattern: "**/" + config.PyprojectName}, {GlobPattern: "**/" + config.StandaloneName},
		}},
	}}}
	// Not on this goroutine: the reply is read by it.
	go func() {
		if err := s.conn.Call(context.Background(), "client/registerCapability", params, nil); err != nil {
			s.logf(MessageWarning, "registering file watchers: %v", err)
		}
	}()
}

// logf sends window/logMessage; it never blocks the caller on the client.
func (s *Server) logf(typ int, format string, args ...any) {
	s.notify("window/logMessage", LogMessageParams{Type: typ, Message: fmt.Sprintf(format, args...)})
}

// showf sends window/showMessage, for what the user must act on.
func (s *Server) showf(typ int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.notify("window/showMessage", LogMessageParams{Type: typ, Message: msg})
	s.notify("window/logMessage", LogMessageParams{Type: typ, Message: msg})
}

func (s *Server) notify(method string, params any) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil {
		return
	}
	if err := conn.Notify(context.Background(), method, params); err != nil && err != jsonrpc2.ErrClosed {
		fmt.Fprintf(s.opts.Stderr, "sglint server: sending %s: %v\n", method, err)
	}
}
