package checker

import (
	"bytes"
	"sync"
	"sync/atomic"

	"github.com/sglint/sglint/analyzer/syntax"
)

// Preloading. A driver may know, before it has listed the files to check,
// which file changed since its last run: the replay record's first stamp
// that no longer holds (internal/replay) is, in an edit run, the file just
// saved. Preload parses that file in the background while the driver
// walks the tree; a Run that then loads the same bytes takes the tree
// instead of parsing them again (the parse of sglang's largest backend is
// 5 ms, the longest job of an edit run's load). Any other bytes, or no Run
// asking, and the tree is simply not used.

type preload struct {
	done   chan struct{}
	src    []byte
	tree   *syntax.Tree
	timing syntax.Timing
}

var preloads struct {
	mu    sync.Mutex
	m     map[string]*preload
	taken atomic.Int64 // trees a Run took instead of parsing (PreloadsTaken)
}

// PreloadsTaken counts the preloaded trees Runs of this process used.
func PreloadsTaken() int64 { return preloads.taken.Load() }

// Preload starts parsing the Python file at abs (an absolute path) in the
// background, unless it is larger than DefaultMaxFileSize or already
// preloaded. A failure is the Run's to meet: it parses the file itself.
func Preload(abs string) {
	preloads.mu.Lock()
	if preloads.m == nil {
		preloads.m = map[string]*preload{}
	}
	if _, ok := preloads.m[abs]; ok {
		preloads.mu.Unlock()
		return
	}
	p := &preload{done: make(chan struct{})}
	preloads.m[abs] = p
	preloads.mu.Unlock()
	go func() {
		defer close(p.done)
		defer func() { _ = recover() }() // the Run parses again, and reports it
		// Read as a Run reads it (lone CRs made line feeds, binary and
		// oversized files refused), so the bytes compare equal.
		src, prob := readSource(Input{Path: abs, Abs: abs}, DefaultMaxFileSize, newWorkerStats())
		if prob != nil {
			return
		}
		parser := syntax.NewParser()
		defer parser.Close()
		if tree, err := parser.Parse(src); err == nil {
			p.src, p.tree, p.timing = src, tree, parser.Timing
		}
	}()
}

// takePreload returns the tree preloaded for abs if it was parsed from the
// same bytes as src (waiting for a preload under way), with the time its
// parse took; a preload is taken once.
func takePreload(abs string, src []byte) (*syntax.Tree, syntax.Timing, bool) {
	if abs == "" {
		return nil, syntax.Timing{}, false
	}
	preloads.mu.Lock()
	p := preloads.m[abs]
	delete(preloads.m, abs)
	preloads.mu.Unlock()
	if p == nil {
		return nil, syntax.Timing{}, false
	}
	<-p.done
	if p.tree == nil || !bytes.Equal(p.src, src) {
		return nil, syntax.Timing{}, false
	}
	p.tree.Src = src // the same bytes: keep one copy
	preloads.taken.Add(1)
	return p.tree, p.timing, true
}
