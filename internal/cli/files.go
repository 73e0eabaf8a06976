package cli

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/internal/relpath"
)

// inputSet is what a run loads: the files to report on, then the rest of
// the project as context (Report false) so that cross-file facts (a base
// class in a file nobody changed) are known when only some files are
// checked, as under pre-commit.
type inputSet struct {
	inputs   []checker.Input
	problems []analyzer.Problem
	root     string          // directory module names are relative to
	reported map[string]bool // display paths of the inputs to report on
	context  map[string]bool // display paths of the context inputs
	explicit map[string]bool // display paths named on the command line (or standard input)
	walked   map[string]int  // display path -> index in inputs of the files the walk found
	// unnamedStdin: standard input was read without --stdin-filename, so
	// the file has no module (see stdinHint).
	unnamedStdin bool
}

// stdinHint is said when standard input is checked without a name:
// without a path the file has no module, so what depends on where it sits
// (a disaggregation queue module, its relative imports) is not seen, and
// silence would read as a pass.
const stdinHint = "sglint: warning: standard input has no path, so the rules that depend on where a file sits " +
	"in the project (its package, relative imports) cannot see it: give --stdin-filename PATH"

// onDisk returns the absolute path of a reported file and its stat before
// the run, as the walk saw it (so that --add-noqa can tell a file that
// changed meanwhile); "" for standard input.
func (s *inputSet) onDisk(path string) (string, os.FileInfo) {
	i, ok := s.walked[path]
	if !ok {
		return "", nil
	}
	return s.inputs[i].Abs, s.inputs[i].Info
}

// findInputs turns the command line's paths, in the project at root
// (projectRoot), into inputs with
// analyzer/discover (gitignore, default, config and --exclude globs,
// symbolic links); "-" reads one file from standard input, shown as
// stdinName when set. Problems with Warning set do not fail the run.
func findInputs(paths []string, root string, opts discover.Options, stdin io.Reader, stdinName string) *inputSet {
	s := newInputSet(0)
	var onDisk []string
	var stdinAbs string
	for _, p := range paths {
		if p != "-" {
			onDisk = append(onDisk, p)
			continue
		}
		in, prob := readStdin(stdin, stdinName)
		if prob != nil {
			s.problems = append(s.problems, *prob)
			continue
		}
		stdinAbs = in.Abs
		s.add(in)
		s.explicit[in.Path] = true
		s.unnamedStdin = stdinName == ""
	}
	s.root = root
	if len(onDisk) > 0 {
		files, found := discover.Find(onDisk, opts)
		for _, p := range found {
			s.problems = append(s.problems, analyzer.Problem{Path: p.Path, Message: p.Message, Warning: p.Warning})
		}
		// Sized once: a whole tree's thousands of paths, inserted one by
		// one, grew each map ten times over.
		s.inputs = slices.Grow(s.inputs, len(files))
		s.walked = make(map[string]int, len(files))
		reported := make(map[string]bool, len(files)+len(s.reported))
		maps.Copy(reported, s.reported) // standard input's
		s.reported = reported
		for _, f := range files {
			s.walked[f.Path] = len(s.inputs)
			s.add(checker.Input{Path: f.Path, Abs: f.Abs, Report: true, Named: f.Explicit, Info: f.Info})
			if f.Explicit {
				s.explicit[f.Path] = true
			}
		}
	}
	s.addContext(opts, stdinAbs, onDisk)
	return s
}

// projectRoot is the root of the project the paths lie in (standard input
// counts by the name it is given).
func projectRoot(paths []string, stdinName string) string {
	var rootPaths []string
	for _, p := range paths {
		if p != "-" {
			rootPaths = append(rootPaths, p)
		}
	}
	if stdinName != "" {
		rootPaths = append(rootPaths, stdinName)
	}
	if len(rootPaths) == 0 {
		rootPaths = []string{"."}
	}
	return discover.ProjectRoot(rootPaths)
}

// newInputSet returns an empty set with room for n inputs.
func newInputSet(n int) *inputSet {
	return &inputSet{inputs: make([]checker.Input, 0, n), reported: make(map[string]bool, n),
		context: map[string]bool{}, explicit: map[string]bool{}, walked: make(map[string]int, n)}
}

func (s *inputSet) add(in checker.Input) {
	if in.Report {
		s.reported[in.Path] = true
	} else {
		s.context[in.Path] = true
	}
	s.inputs = append(s.inputs, in)
}

// addContext loads the project's other Python files, found with the same
// discovery options, when the root is a real project (it holds a project
// marker: never a walk of / or a home directory). Problems met there are
// not the run's: an unreadable file nobody asked about must not fail it.
func (s *inputSet) addContext(opts discover.Options, stdinAbs string, paths []string) {
	if !discover.IsProjectRoot(s.root) || walkedRoot(s.root, paths, opts.Cwd) {
		return
	}
	seen := map[string]bool{filepath.Clean(stdinAbs): stdinAbs != ""}
	for _, in := range s.inputs {
		if in.Abs != "" {
			seen[filepath.Clean(in.Abs)] = true
		}
	}
	files, _ := discover.Find([]string{s.root}, opts)
	for _, f := range files {
		if !seen[filepath.Clean(f.Abs)] && !s.reported[f.Path] {
			s.add(checker.Input{Path: f.Path, Abs: f.Abs, Info: f.Info})
		}
	}
}

// walkedRoot reports whether one of the paths is a directory at or above
// root: its walk, with the same options, already found every file a walk
// of root would (`sglint ./python` with python/ the root: no second walk).
func walkedRoot(root string, paths []string, cwd string) bool {
	for _, p := range paths {
		if !filepath.IsAbs(p) && cwd != "" {
			p = filepath.Join(cwd, p)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			continue
		}
		if _, ok := relpath.Inside(abs, root); ok {
			return true
		}
	}
	return false
}

// readStdin reads standard input as one file: shown as "-", or as name
// (--stdin-filename) with that path's absolute form for configs and
// per-file-ignores.
func readStdin(stdin io.Reader, name string) (checker.Input, *analyzer.Problem) {
	display := "-"
	if name != "" {
		display = filepath.ToSlash(filepath.Clean(name))
	}
	if stdin == nil {
		return checker.Input{}, &analyzer.Problem{Path: display, Message: "cannot read: no standard input"}
	}
	src, err := io.ReadAll(stdin)
	if err != nil {
		return checker.Input{}, &analyzer.Problem{Path: display, Message: fmt.Sprintf("cannot read: %v", err)}
	}
	in := checker.Input{Path: display, Src: src, Report: true, Named: true}
	if name != "" {
		in.Abs, _ = filepath.Abs(name)
	}
	return in, nil
}
