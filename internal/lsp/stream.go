package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// stream is the protocol's base framing (a Content-Length header, a blank
// line, a JSON body) as a jsonrpc2.ObjectStream that survives a client
// sending garbage. jsonrpc2's own VSCodeObjectCodec ends the connection at
// the first body that does not decode, and can lose its place in the
// stream when a body has bytes after its JSON value; this one reads every
// body whole, answers a body that is not JSON-RPC with the error response
// JSON-RPC prescribes (parse error or invalid request, id null unless the
// request's id could be read), skips header lines that are not headers
// until the next Content-Length, and goes on reading. Only the end of the
// input (or a read error) ends it.
type stream struct {
	r      *bufio.Reader
	w      io.Writer
	closer io.Closer
	mu     sync.Mutex // one frame at a time on w
	// warn reports what was skipped or refused (the server logs it to the
	// client); it must not block on reading.
	warn func(string)
}

// maxBody bounds a frame's declared length: a larger one is taken for
// garbage rather than waited for.
const maxBody = 256 << 20

// maxHeaderLine bounds the bytes kept of one header line; the rest of a
// longer line is skipped.
const maxHeaderLine = 4 << 10

func newStream(r io.Reader, w io.Writer, closer io.Closer, warn func(string)) *stream {
	return &stream{r: bufio.NewReaderSize(r, 64<<10), w: w, closer: closer, warn: warn}
}

// WriteObject writes one frame.
func (s *stream) WriteObject(obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return s.writeFrame(data)
}

func (s *stream) writeFrame(data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	frame := make([]byte, 0, len(data)+32)
	frame = append(frame, "Content-Length: "...)
	frame = strconv.AppendInt(frame, int64(len(data)), 10)
	frame = append(frame, "\r\n\r\n"...)
	frame = append(frame, data...)
	_, err := s.w.Write(frame)
	return err
}

// ReadObject reads frames until one decodes into v (a *jsonrpc2.anyMessage).
func (s *stream) ReadObject(v any) error {
	for {
		body, err := s.readFrame()
		if err != nil {
			return err
		}
		// v may hold a half-decoded message from a refused body: start
		// from its zero value, so that a stale request is never read.
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
			rv.Elem().SetZero()
		}
		err = json.Unmarshal(body, v)
		if err == nil {
			return nil
		}
		if werr := s.refuse(body, err); werr != nil {
			return werr
		}
	}
}

// refuse answers a body that is not a JSON-RPC message.
func (s *stream) refuse(body []byte, cause error) error {
	code, what := int64(jsonrpc2.CodeInvalidRequest), "invalid request"
	var syn *json.SyntaxError
	if errors.As(cause, &syn) || !json.Valid(body) {
		code, what = jsonrpc2.CodeParseError, "parse error"
	} else if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
		cause = errors.New("batches are not part of the Language Server Protocol")
	}
	id := json.RawMessage("null")
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &probe) == nil && len(probe.ID) > 0 && (probe.ID[0] == '"' || probe.ID[0] == '-' || probe.ID[0] >= '0' && probe.ID[0] <= '9') {
		id = probe.ID
	}
	s.warn(fmt.Sprintf("refused a message (%s: %v): %s", what, cause, clip(body, 200)))
	resp, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc2.Error  `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: jsonrpc2.Error{Code: code, Message: fmt.Sprintf("%s: %v", what, cause)}})
	if err != nil {
		return err
	}
	return s.writeFrame(resp)
}

// readFrame returns the next frame's body. Lines that are not headers
// (no "Name:" prefix) are skipped with a warning, and so is a header block
// without a usable Content-Length.
func (s *stream) readFrame() ([]byte, error) {
	length, started := -1, false
	for {
		line, err := s.readLine()
		if err != nil {
			if err == io.EOF && started {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if line == "" {
			if !started {
				continue // blank lines between frames
			}
			if length >= 0 {
				break
			}
			s.warn("skipped a header block without a valid Content-Length")
			length, started = -1, false
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || !isToken(name) {
			s.warn(fmt.Sprintf("skipped input that is not a header: %q", clip([]byte(line), 80)))
			length, started = -1, false
			continue
		}
		started = true
		if strings.EqualFold(name, "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxBody {
				s.warn(fmt.Sprintf("skipped a header with a bad Content-Length: %q", clip([]byte(value), 40)))
				length, started = -1, false
				continue
			}
			length = n
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// readLine reads one line without its LF or CRLF; only its first
// maxHeaderLine bytes are kept.
func (s *stream) readLine() (string, error) {
	var b []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		if len(b) < maxHeaderLine {
			b = append(b, chunk[:min(len(chunk), maxHeaderLine-len(b))]...)
		}
		if err == bufio.ErrBufferFull {
			continue // a long line: read on to its end
		}
		if err == io.EOF && len(b) > 0 {
			return "", io.ErrUnexpectedEOF
		}
		if err != nil {
			return "", err
		}
		return strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r"), nil
	}
}

// isToken reports a header field name (RFC 7230 token, letters, digits
// and dashes in practice).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

// Close closes the underlying connection.
func (s *stream) Close() error {
	if s.closer == nil {
		return nil
	}
	return s.closer.Close()
}
