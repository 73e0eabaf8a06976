package checker

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/noqa"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
)

// readSource reads one input and checks that it can be Python source.
// Files that cannot be are skipped with a warning rather than parsed into
// noise: a NUL byte (binary data; CPython refuses such source too) or a
// size over maxSize. Invalid UTF-8 is parsed anyway and left to SGL000,
// which reports where it is. Lone carriage returns are read as line feeds.
func readSource(in Input, maxSize int64, ws *workerStats) ([]byte, *analyzer.Problem) {
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
		return nil, &analyzer.Problem{Path: in.Path, Warning: true,
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
func readFile(in Input, maxSize int64) ([]byte, *analyzer.Problem) {
	f, err := os.Open(in.Abs)
	if err != nil {
		return nil, &analyzer.Problem{Path: in.Path, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, &analyzer.Problem{Path: in.Path, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))}
	}
	if info.IsDir() {
		return nil, &analyzer.Problem{Path: in.Path, Message: "cannot read: is a directory"}
	}
	hint := int64(512) // a pipe claims no size
	if info.Mode().IsRegular() {
		if info.Size() > maxSize {
			return nil, tooLarge(in, info.Size(), maxSize)
		}
		hint = info.Size() + 1 // one byte more sees the end without growing
	}
	b, err := readAtMost(f, hint, maxSize+1)
	if err != nil {
		return nil, &analyzer.Problem{Path: in.Path, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))}
	}
	return b, nil
}

// tooLarge is the warning for a file over the limit; size < 0 if unknown.
func tooLarge(in Input, size, maxSize int64) *analyzer.Problem {
	msg := fmt.Sprintf("file too large (over the %s limit), skipped", byteSize(maxSize))
	if size >= 0 {
		msg = fmt.Sprintf("file too large (%d bytes, over the %s limit), skipped", size, byteSize(maxSize))
	}
	return &analyzer.Problem{Path: in.Path, Warning: true, Message: msg}
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

func recoverInto(problems *[]analyzer.Problem, path string) {
	if v := recover(); v != nil {
		*problems = append(*problems, analyzer.Problem{Path: path, Internal: true,
			Message: fmt.Sprintf("panic: %v\n%s", v, debug.Stack())})
	}
}

// worker is one phase-1 goroutine's state, reused from file to file.
type worker struct {
	r          *runner
	parser     *syntax.Parser
	summarizer pymodel.Summarizer
	ws         *workerStats
	// scratch is the last dropped tree, whose memory the next parse reuses:
	// nothing refers to a tree once its file is done in phase 1.
	scratch *syntax.Tree
	buf     []byte // packing and encoding space
}

func (r *runner) newWorker() *worker {
	return &worker{r: r, parser: syntax.NewParser(), ws: newWorkerStats()}
}

func (w *worker) close() {
	w.ws.parser = w.parser.Timing
	w.parser.Close()
	w.r.mergeStats(w.ws)
}

// read reads input i into a File (and hashes it when the run has a
// cache); nil when it cannot be checked (the problem is recorded).
func (r *runner) read(i int, ws *workerStats) *file {
	in := r.inputs[i]
	defer recoverInto(&r.problems[i], in.Path)
	f, prob := r.readInput(in, in.Report, ws)
	if prob != nil {
		r.problems[i] = append(r.problems[i], *prob)
		return nil
	}
	if r.cache != nil {
		t0 := time.Now()
		f.hash = sha256.Sum256(f.Src())
		ws.hash += time.Since(t0)
	}
	return f
}

// readInput reads in into a file with its module name (reported on when
// report), or says why it cannot be read.
func (r *runner) readInput(in Input, report bool, ws *workerStats) (*file, *analyzer.Problem) {
	src, prob := readSource(in, r.maxSize, ws)
	if prob != nil {
		return nil, prob
	}
	f := newFile(in.Path, in.Abs, report, src, r.trees)
	f.Module, f.Package = moduleOf(r.root, in.Abs, in.Path)
	return f, nil
}

// load is phase 1 for input i: read (unless phase 0 did), then parse,
// summarise and run the file-local rules, or take it all from the cache.
func (r *runner) load(w *worker, i int) {
	in := r.inputs[i]
	defer recoverInto(&r.problems[i], in.Path)
	reuse := w.scratch
	w.scratch = nil // not reused after a panic
	f := r.pending[i]
	r.pending[i] = nil
	if f == nil {
		if f = r.read(i, w.ws); f == nil {
			return
		}
	}
	src := f.Src()
	r.files[i] = f
	// A run that wants only the records' raise sites (no rules, no cache:
	// `sglint records` over a whole tree) parses only the files whose bytes
	// can hold one: eight in nine files of an sglang tree raise no class a
	// record names, and parsing is the run's cost.
	if len(r.global) == 0 && len(r.local) == 0 && r.cache == nil && !r.opts.Records.MayHold(src) {
		return
	}

	cached := r.cache != nil && in.onDisk()
	var me *modelEntry
	var fe *findingsEntry // the cached findings of a file to report on, if valid
	if cached {
		me = r.cache.loadModel(f, w.ws)
		if f.Report {
			fe = r.cache.loadFindings(f, w.ws)
		}
	}
	if me != nil && (!f.Report || fe != nil) {
		if sites, ok := me.sites(r.opts.Records); ok {
			f.summaryCached = true // read if the index is needed
			f.fromCache = true
			r.sites[i] = sites
			if f.Report {
				r.sets[i] = me.noqaSet(f.Path)
				r.localDiags[i], _ = r.cache.diags(fe.Local)
			}
			w.ws.cached++
			if r.decodeEarly {
				r.decodeSummary(f, &r.problems[i], w.ws, &w.summarizer)
			}
			return
		}
	}

	// A file changed since the cache saw it: reparse what the edit
	// touched.
	var snap []byte
	if cached {
		snap = r.cache.oldSnapshot(f, w.ws)
	}
	var tree *syntax.Tree
	var err error
	if snap != nil {
		tree, err = w.parser.ReparseSnapshot(snap, src)
		w.scratch = reuse // not used: the next parse may reuse it
	} else {
		tree, err = w.parser.ParseReusing(src, reuse)
	}
	if err != nil {
		r.problems[i] = append(r.problems[i], analyzer.Problem{Path: in.Path, Message: err.Error()})
		return
	}
	f.SetTree(tree)
	// Without project rules nothing reads a summary or a tree after this
	// (unless a cache keeps them for later runs): a run of file-local rules
	// alone (--select SGL000) costs little more than parsing.
	needModel := len(r.global) > 0 || r.cache != nil
	t1 := time.Now()
	if needModel {
		summarize(&w.summarizer, f, &r.problems[i])
		t0 := t1
		t1 = time.Now()
		w.ws.summarize += t1.Sub(t0)
	}
	r.sites[i] = r.opts.Records.FindIn(tree, sitePath(f.File))
	t2 := time.Now()
	w.ws.records += t2.Sub(t1)
	var set *noqa.Set
	if f.Report || cached {
		set = parseNoqa(f, &r.problems[i])
		w.ws.noqa += time.Since(t2)
	}
	if f.Report {
		r.sets[i] = set
		r.localDiags[i] = checkFile(f, nil, r.local, r.settings(), &r.problems[i], w.ws)
		r.localRan[i] = true
	}
	saveModel := cached && me == nil && f.Summary != nil && set != nil && !hasInternal(r.problems[i])
	if r.changedFirst && cached { // a cache makes needModel true
		// A changed file of a planned run (loadPlanned): the rules read its
		// tree next, and its cache records are needed only when the
		// bundles are written (saveModels waits). Keep the tree, and encode
		// the records off the load's critical path.
		sites := r.sites[i]
		if f.Summary != nil {
			f.summaryDigest() // memoised now: the goroutine only reads it
		}
		r.fileSaves.Go(func() {
			ws := newWorkerStats()
			defer r.mergeStats(ws)
			if saveModel {
				r.cache.saveModel(f, set, sites, ws)
			}
			t0 := time.Now()
			packed := tree.Pack(nil)
			ws.pack += time.Since(t0)
			r.cache.saveTree(f, packed)
		})
		return
	}
	if saveModel {
		r.cache.saveModel(f, set, r.sites[i], w.ws)
	}
	if !needModel && !r.opts.KeepTrees {
		f.DropTree(nil) // File.Tree parses again if anyone asks
		w.scratch = tree
	} else if !r.opts.KeepTrees {
		t0 := time.Now()
		w.buf = f.packTree(w.buf)
		w.ws.pack += time.Since(t0)
		w.scratch = tree
		if cached && f.packed != nil {
			r.cache.saveTree(f, f.packed)
		}
	}
}

// parseNoqa reads a file's suppression comments; a failure costs only the
// suppressions, and is reported as an internal error.
func parseNoqa(f *file, problems *[]analyzer.Problem) (s *noqa.Set) {
	defer func() {
		if v := recover(); v != nil {
			s = nil
			*problems = append(*problems, analyzer.Problem{Path: f.Path, Internal: true,
				Message: fmt.Sprintf("reading noqa comments panicked: %v\n%s", v, debug.Stack())})
		}
	}()
	s = noqa.Parse(f.Tree())
	s.Path = f.Path
	return s
}

// summarize fills f's summary. A panic in the model costs the file its
// summary (an internal problem), not its rules.
func summarize(z *pymodel.Summarizer, f *file, problems *[]analyzer.Problem) {
	defer func() {
		if v := recover(); v != nil {
			f.Summary = nil
			*z = pymodel.Summarizer{} // its buffers may be half-written
			*problems = append(*problems, analyzer.Problem{Path: f.Path, Internal: true,
				Message: fmt.Sprintf("project model panicked: %v\n%s", v, debug.Stack())})
		}
	}()
	f.sumDigest = [16]byte{}
	f.Summary = z.Summarize(f.Tree())
}

// sitePath is the path a file's raise sites are compared with their
// records' filePath by: the absolute one, which holds the repository's
// layout whatever the working directory.
func sitePath(f *analyzer.File) string {
	if f.Abs != "" {
		return f.Abs
	}
	return f.Path
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
