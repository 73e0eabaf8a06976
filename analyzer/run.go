package analyzer

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"

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
}

func (p Problem) String() string {
	if p.Internal {
		return fmt.Sprintf("%s: internal error: %s", p.Path, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.Path, p.Message)
}

// Options configure a run.
type Options struct {
	Rules []*Rule // rules to run, already filtered by selection
	Jobs  int     // worker goroutines; <= 0 means the number of CPUs
	Root  string  // project root for module names
	// RuleOptions holds configured options by rule ID, each a value of the
	// type the rule's Options hook returns. Rules absent here get defaults.
	RuleOptions map[string]any
}

// Result of a run. Diagnostics are sorted; Problems are in input order.
type Result struct {
	Diagnostics []Diagnostic
	Problems    []Problem
	Files       int // files checked (reported on)
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
	files := make([]*File, len(inputs))
	problems := make([][]Problem, len(inputs))

	// Phase 1: read and parse.
	parallel(len(inputs), jobs, func(next <-chan int) {
		parser := syntax.NewParser()
		defer parser.Close()
		for i := range next {
			func() {
				defer recoverInto(&problems[i], inputs[i].Path)
				f, prob := load(parser, inputs[i])
				if prob != nil {
					problems[i] = append(problems[i], *prob)
					return
				}
				files[i] = f
			}()
		}
	})

	project := &Project{Root: opts.Root}
	for _, f := range files {
		if f != nil {
			project.Files = append(project.Files, f)
		}
	}

	// Phase 2: rules, per file.
	ruleOpts := ruleOptions(opts.Rules, opts.RuleOptions)
	diags := make([][]Diagnostic, len(inputs))
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
			}
		}
	})

	res := &Result{Files: checked}
	for i := range inputs {
		res.Diagnostics = append(res.Diagnostics, diags[i]...)
		res.Problems = append(res.Problems, problems[i]...)
	}
	SortDiagnostics(res.Diagnostics)
	return res
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

func load(parser *syntax.Parser, in Input) (*File, *Problem) {
	src := in.Src
	if src == nil {
		b, err := os.ReadFile(in.Abs)
		if err != nil {
			return nil, &Problem{Path: in.Path, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))}
		}
		src = b
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return nil, &Problem{Path: in.Path, Message: err.Error()}
	}
	return &File{Path: in.Path, Abs: in.Abs, Tree: tree, Report: in.Report}, nil
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
