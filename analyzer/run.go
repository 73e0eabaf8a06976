package analyzer

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/analyzer/noqa"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Input names one file to load.
type Input struct {
	Path   string // display path
	Abs    string // path to read; ignored when Src is set
	Src    []byte // contents already in hand (stdin), or nil to read Abs
	Report bool   // findings wanted (false: loaded only as context)
}

// Problem is a file that could not be checked, or an internal error.
type Problem struct {
	Path     string
	Message  string
	Internal bool // a bug in sglint (a recovered panic), not bad input
	// Warning marks a file skipped on purpose (binary, too large): worth a
	// note, but not a failure of the run.
	Warning bool
}

func (p Problem) String() string {
	switch {
	case p.Internal:
		return fmt.Sprintf("%s: internal error: %s", p.Path, p.Message)
	case p.Warning:
		return fmt.Sprintf("%s: warning: %s", p.Path, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.Path, p.Message)
}

// DefaultMaxFileSize is the largest file checked unless Options says
// otherwise. Parse time and memory grow with the number of syntax nodes
// (about 3.5 µs and 100 bytes each): hand-written Python is far below this
// size, and a bigger .py file is generated data, not code to lint.
const DefaultMaxFileSize = 32 << 20

// Options configure a run.
type Options struct {
	Rules []*Rule // rules to run, already filtered by selection
	Jobs  int     // worker goroutines; <= 0 means the number of CPUs
	Root  string  // project root for module names; "" means discover.ProjectRoot of the inputs
	// RuleOptions holds configured options by rule ID, each a value of the
	// type the rule's Options hook returns. Rules absent here get defaults.
	RuleOptions map[string]any
	// MaxFileSize skips larger files with a warning; 0 means
	// DefaultMaxFileSize.
	MaxFileSize int64
	// Records are error records whose raise sites are found in every
	// loaded file while it is loaded (Project.RaiseSites).
	Records *records.Set
}

// Result of a run. Diagnostics are sorted; Problems are in input order.
type Result struct {
	Diagnostics []Diagnostic // what is left after suppressions
	Problems    []Problem
	Files       int // files checked (reported on)
	Suppressed  int // findings dropped by noqa comments
	// Noqa holds the suppression comments of every checked file, in input
	// order, with the rules each one suppressed (for unused-noqa reports).
	Noqa []*noqa.Set
	// RaiseSites are Project.RaiseSites: the records' raise sites in every
	// loaded file (File.Report tells the checked ones).
	RaiseSites []RaiseSite
}

// Run loads every input, then runs the rules on the files to report on.
// Loading and checking each use a pool of opts.Jobs workers, one parser per
// worker; results land in per-input slots, so the outcome does not depend
// on scheduling.
func Run(inputs []Input, opts Options) *Result {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	maxSize := opts.MaxFileSize
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	files := make([]*File, len(inputs))
	problems := make([][]Problem, len(inputs))
	sites := make([][]records.Site, len(inputs))

	root := opts.Root
	if root == "" {
		root = rootOf(inputs)
	}

	// Phase 1: read, parse and summarise, one parser and one summarizer
	// per worker; find the records' raise sites.
	parallel(len(inputs), jobs, func(next <-chan int) {
		parser := syntax.NewParser()
		defer parser.Close()
		var summarizer pymodel.Summarizer
		for i := range next {
			func() {
				defer recoverInto(&problems[i], inputs[i].Path)
				f, prob := load(parser, inputs[i], maxSize)
				if prob != nil {
					problems[i] = append(problems[i], *prob)
					return
				}
				files[i] = f
				summarize(&summarizer, f, root, &problems[i])
				sites[i] = opts.Records.Find(f.Tree)
			}()
		}
	})

	project := &Project{Root: root, Records: opts.Records}
	for i, f := range files {
		if f != nil {
			project.Files = append(project.Files, f)
			for _, s := range sites[i] {
				project.RaiseSites = append(project.RaiseSites, RaiseSite{File: f, Site: s})
			}
		}
	}
	ix, indexProblem := buildIndex(project.Files)
	project.Index = ix
	project.Flow = newFlow(ix, project.Files)

	// Phase 2: rules and suppression comments, per file.
	ruleOpts := ruleOptions(opts.Rules, opts.RuleOptions)
	diags := make([][]Diagnostic, len(inputs))
	sets := make([]*noqa.Set, len(inputs))
	checked := 0
	for _, f := range files {
		if f != nil && f.Report {
			checked++
		}
	}
	parallel(len(inputs), jobs, func(next <-chan int) {
		for i := range next {
			if f := files[i]; f != nil && f.Report {
				diags[i] = checkFile(f, project, opts.Rules, ruleOpts, &problems[i])
				sets[i] = parseNoqa(f, &problems[i])
			}
		}
	})

	// Phase 3, sequential: a rule may report in another file than the one it
	// checks, so suppressions and line texts are looked up by path.
	res := &Result{Files: checked, RaiseSites: project.RaiseSites}
	byPath := map[string]int{}
	for i, f := range files {
		if f != nil {
			if _, dup := byPath[f.Path]; !dup {
				byPath[f.Path] = i
			}
		}
		if sets[i] != nil {
			res.Noqa = append(res.Noqa, sets[i])
		}
	}
	for i := range inputs {
		res.Problems = append(res.Problems, problems[i]...)
	}
	if indexProblem != nil {
		res.Problems = append(res.Problems, *indexProblem)
	}
	var all []Diagnostic
	for i := range inputs {
		all = append(all, diags[i]...)
	}
	SortDiagnostics(all) // suppression usage is then recorded in output order
	for _, d := range all {
		i, ok := byPath[d.Path]
		if ok {
			d.LineText = lineText(files[i].Tree, d.Start.Line)
		}
		if ok && sets[i].Suppresses(d.Rule.ID, d.Start.Line) {
			res.Suppressed++
			continue
		}
		res.Diagnostics = append(res.Diagnostics, d)
	}
	return res
}

// parseNoqa reads a file's suppression comments; a failure costs only the
// suppressions, and is reported as an internal error.
func parseNoqa(f *File, problems *[]Problem) (s *noqa.Set) {
	defer func() {
		if v := recover(); v != nil {
			s = nil
			*problems = append(*problems, Problem{Path: f.Path, Internal: true,
				Message: fmt.Sprintf("reading noqa comments panicked: %v\n%s", v, debug.Stack())})
		}
	}()
	s = noqa.Parse(f.Tree)
	s.Path = f.Path
	return s
}

// checkFile runs every rule on one file. A panicking rule loses only its own
// findings on that file; the problem names the rule and the file.
func checkFile(f *File, project *Project, rules []*Rule, ruleOpts map[*Rule]any, problems *[]Problem) []Diagnostic {
	state := &fileState{results: map[*Analysis]analysisResult{}, running: map[*Analysis]bool{}}
	for _, r := range rules {
		func() {
			before := len(state.diags)
			defer func() {
				if v := recover(); v != nil {
					state.diags = state.diags[:before]
					*problems = append(*problems, Problem{Path: f.Path, Internal: true,
						Message: fmt.Sprintf("rule %s panicked: %v\n%s", r.ID, v, debug.Stack())})
				}
			}()
			pass := &Pass{Rule: r, File: f, Project: project, state: state, options: ruleOpts[r]}
			if err := r.Run(pass); err != nil {
				*problems = append(*problems, Problem{Path: f.Path, Internal: true,
					Message: fmt.Sprintf("rule %s: %v", r.ID, err)})
			}
		}()
	}
	return state.diags
}

// ruleOptions resolves each rule's options once per run: the configured
// value, else the rule's defaults. Passes share the value read-only.
func ruleOptions(rules []*Rule, configured map[string]any) map[*Rule]any {
	m := map[*Rule]any{}
	for _, r := range rules {
		if v, ok := configured[r.ID]; ok {
			m[r] = v
		} else if r.Options != nil {
			m[r] = r.Options()
		}
	}
	return m
}

// load reads and parses one input. Files that cannot be Python source are
// skipped with a warning rather than parsed into noise: a NUL byte (binary
// data; CPython refuses such source too) or a size over maxSize. Invalid
// UTF-8 is parsed anyway and left to SGL000, which reports where it is.
func load(parser *syntax.Parser, in Input, maxSize int64) (*File, *Problem) {
	src := in.Src
	if src == nil {
		b, prob := readFile(in, maxSize)
		if prob != nil {
			return nil, prob
		}
		src = b
	}
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
	tree, err := parser.Parse(loneCRToLF(src))
	if err != nil {
		return nil, &Problem{Path: in.Path, Message: err.Error()}
	}
	return &File{Path: in.Path, Abs: in.Abs, Tree: tree, Report: in.Report}, nil
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
	b, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, &Problem{Path: in.Path, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))}
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

// parallel feeds the indexes [0, n) to jobs workers; each worker owns its
// per-worker state (a parser) for its whole life.
func parallel(n, jobs int, worker func(next <-chan int)) {
	jobs = max(1, min(jobs, n))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker(next)
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// rootOf is the project root of the inputs read from disk.
func rootOf(inputs []Input) string {
	var paths []string
	for _, in := range inputs {
		if in.Abs != "" {
			paths = append(paths, in.Abs)
		} else if in.Path != "" {
			paths = append(paths, in.Path)
		}
	}
	if len(paths) == 0 {
		return ""
	}
	return discover.ProjectRoot(paths)
}

// summarize fills f's summary and module name. A panic in the model costs
// the file its summary (an internal problem), not its rules.
func summarize(z *pymodel.Summarizer, f *File, root string, problems *[]Problem) {
	f.Model = -1
	path := f.Abs
	if path == "" {
		path = f.Path
	}
	f.Module, f.pkg = pymodel.ModuleName(root, path)
	defer func() {
		if v := recover(); v != nil {
			f.Summary = nil
			*z = pymodel.Summarizer{} // its buffers may be half-written
			*problems = append(*problems, Problem{Path: f.Path, Internal: true,
				Message: fmt.Sprintf("project model panicked: %v\n%s", v, debug.Stack())})
		}
	}()
	f.Summary = z.Summarize(f.Tree)
}

// buildIndex links the summaries of all loaded files, in input order (so
// the index does not depend on scheduling). If linking panics, the run
// goes on with an empty index and an internal problem.
func buildIndex(files []*File) (ix *pymodel.Index, prob *Problem) {
	var srcs []pymodel.SourceFile
	for _, f := range files {
		if f.Summary == nil {
			continue
		}
		f.Model = int32(len(srcs))
		srcs = append(srcs, pymodel.SourceFile{Path: f.Path, Module: f.Module, Package: f.pkg, Summary: f.Summary})
	}
	defer func() {
		if v := recover(); v != nil {
			for _, f := range files {
				f.Model = -1
			}
			ix = pymodel.NewIndex(nil)
			prob = &Problem{Path: "(project model)", Internal: true,
				Message: fmt.Sprintf("project index panicked: %v\n%s", v, debug.Stack())}
		}
	}()
	return pymodel.NewIndex(srcs), nil
}

// newFlow gives the facts layer the trees of the loaded files.
func newFlow(ix *pymodel.Index, files []*File) *pymodel.Flow {
	trees := make([]*syntax.Tree, len(ix.Files))
	for _, f := range files {
		if f.Model >= 0 && int(f.Model) < len(trees) {
			trees[f.Model] = f.Tree
		}
	}
	return pymodel.NewFlow(ix, func(fi int32) *syntax.Tree {
		if fi < 0 || int(fi) >= len(trees) {
			return nil
		}
		return trees[fi]
	}, nil)
}
