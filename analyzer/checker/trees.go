package checker

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/sglint/sglint/analyzer/syntax"
)

// treeLoader parses again the files whose tree is not in memory (File.Tree),
// with parsers kept for reuse while the run lasts.
type treeLoader struct {
	mu       sync.Mutex
	free     []*syntax.Parser
	closed   bool
	reparse  atomic.Int64 // trees parsed again
	unpacked atomic.Int64 // trees unpacked
	busy     atomic.Int64 // nanoseconds spent rebuilding trees
	// cached returns the packed tree of a file whose results came from the
	// cache, nil if there is none.
	cached func(f *file) []byte
}

// unpack rebuilds a packed tree; nil if the data does not decode (then the
// caller parses).
func (l *treeLoader) unpack(src, packed []byte) *syntax.Tree {
	t0 := time.Now()
	t, err := syntax.Unpack(src, packed)
	if l != nil {
		l.unpacked.Add(1)
		l.busy.Add(int64(time.Since(t0)))
	}
	if err != nil {
		return nil
	}
	return t
}

// parse parses src with a pooled parser; an unparsable source (never seen:
// it parsed when loaded) gives an empty tree.
func (l *treeLoader) parse(src []byte) *syntax.Tree {
	t0 := time.Now()
	p := l.get()
	t, err := p.Parse(src)
	l.put(p)
	if l != nil {
		l.reparse.Add(1)
		l.busy.Add(int64(time.Since(t0)))
	}
	if err != nil {
		return &syntax.Tree{Src: src}
	}
	return t
}

func (l *treeLoader) get() *syntax.Parser {
	if l != nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		if n := len(l.free); n > 0 {
			p := l.free[n-1]
			l.free = l.free[:n-1]
			return p
		}
	}
	return syntax.NewParser()
}

func (l *treeLoader) put(p *syntax.Parser) {
	if l != nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		if !l.closed {
			l.free = append(l.free, p)
			return
		}
	}
	p.Close()
}

// close frees the pooled parsers; later parses use a parser each.
func (l *treeLoader) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range l.free {
		p.Close()
	}
	l.free, l.closed = nil, true
}
