package analyzer

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/sglint/sglint/analyzer/syntax"
)

// readSource reads one input and checks that it can be Python source.
// Files that cannot be are skipped with a warning rather than parsed into
// noise: a NUL byte (binary data; CPython refuses such source too) or a
// size over maxSize. Invalid UTF-8 is parsed anyway and left to SGL000,
// which reports where it is. Lone carriage returns are read as line feeds.
func readSource(in Input, maxSize int64, ws *workerStats) ([]byte, *Problem) {
	src := in.Src
	if src == nil {
		t0 := time.Now()
		b, prob := readFile(in, maxSize)
		ws.read += time.Since(t0)
		if prob != nil {
			return nil, prob
		}
		src = b
	}
	ws.bytes += int64(len(src))
	if int64(len(src)) > maxSize {
		size := int64(len(src))
		if in.Src == nil {
			size = -1 // the read stopped at the limit
		}
		return nil, tooLarge(in, size, maxSize)
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		pos := syntax.PosIn(src, syntax.LineStarts(src[:i]), i)
		return nil, &Problem{Path: in.Path, Warning: true,
			Message: fmt.Sprintf("binary file (NUL byte at %d:%d), skipped", pos.Line, pos.Column)}
	}
	return loneCRToLF(src), nil
}

// loneCRToLF returns src with each carriage return that does not start a
// CRLF replaced by a line feed, in a copy. Python reads a lone CR as a line
// end (classic Mac files) but tree-sitter does not; the swap keeps every
// byte offset, so positions stay true.
func loneCRToLF(src []byte) []byte {
	i := bytes.IndexByte(src, '\r')
	if i < 0 {
		return src
	}
	var out []byte
	for ; i >= 0 && i < len(src); i = nextCR(src, i+1) {
		if i+1 < len(src) && src[i+1] == '\n' {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		out[i] = '\n'
	}
	if out == nil {
		return src
	}
	return out
}

// nextCR is the index of the next '\r' at or after from, or -1.
func nextCR(src []byte, from int) int {
	if from >= len(src) {
		return -1
	}
	if j := bytes.IndexByte(src[from:], '\r'); j >= 0 {
		return from + j
	}
	return -1
}

// readFile reads in.Abs, refusing directories and stopping at maxSize+1
// bytes whatever the file claims its size is (pipes claim none).
func readFile(in Input, maxSize int64) ([]byte, *Problem) {
	f, err := os.Open(in.Abs)
	if err != nil {
		return nil, &Problem{Path: in.Path, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, &Problem{Path: in.Path, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))}
	}
	if info.IsDir() {
		return nil, &Problem{Path: in.Path, Message: "cannot read: is a directory"}
	}
	if info.Mode().IsRegular() && info.Size() > maxSize {
		return nil, tooLarge(in, info.Size(), maxSize)
	}
	hint := int64(512) // pipes claim no size
	if info.Mode().IsRegular() {
		hint = info.Size() + 1 // +1 sees EOF without growing the buffer
	}
	b, err := readAtMost(f, hint, maxSize+1)
	if err != nil {
		return nil, &Problem{Path: in.Path, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))}
	}
	return b, nil
}

// readAtMost reads r to its end or to limit bytes, into a buffer of hint
// bytes to start with (io.ReadAll starts small and copies as it grows).
func readAtMost(r io.Reader, hint, limit int64) ([]byte, error) {
	b := make([]byte, 0, min(max(hint, 512), limit))
	for int64(len(b)) < limit {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		room := min(int64(cap(b)-len(b)), limit-int64(len(b)))
		n, err := r.Read(b[len(b) : len(b)+int(room)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// tooLarge is the warning for a file over the limit; size < 0 if unknown.
func tooLarge(in Input, size, maxSize int64) *Problem {
	msg := fmt.Sprintf("file too large (over the %s limit), skipped", byteSize(maxSize))
	if size >= 0 {
		msg = fmt.Sprintf("file too large (%d bytes, over the %s limit), skipped", size, byteSize(maxSize))
	}
	return &Problem{Path: in.Path, Warning: true, Message: msg}
}

// byteSize formats a limit in the largest binary unit that divides it.
func byteSize(n int64) string {
	switch {
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

func recoverInto(problems *[]Problem, path string) {
	if v := recover(); v != nil {
		*problems = append(*problems, Problem{Path: path, Internal: true,
			Message: fmt.Sprintf("panic: %v\n%s", v, debug.Stack())})
	}
}
