// Package discover turns command-line paths into the list of Python files to
// check: it walks directories for *.py files, honours .gitignore files and
// exclude globs, follows symbolic links without looping, and reports paths it
// could not use as Problems instead of failing.
package discover

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/sglint/sglint/internal/relpath"
)

// DefaultExcludes are skipped in every walk unless Options.NoDefaultExcludes
// is set: version-control data, caches, virtual environments and build
// output, which hold Python that is not the project's own. They are globs,
// matched like Options.Exclude.
var DefaultExcludes = []string{
	".git", "__pycache__", ".venv", "venv", "build", "dist",
	"node_modules", ".tox", ".mypy_cache", ".sglint_cache",
}

// Options configure Find. The zero value does not read .gitignore files:
// start from DefaultOptions.
type Options struct {
	// RespectGitignore honours .gitignore files (the walk root's, nested ones,
	// and those between the enclosing git repository's root and the walk root)
	// and the repository's .git/info/exclude.
	RespectGitignore bool
	// Exclude lists extra globs (doublestar syntax: *, **, ?, [...], {a,b})
	// for files and directories met in a walk. A glob without "/" matches a
	// base name at any depth ("tests", "*_pb2.py"); a glob with one matches
	// the path relative to the walk root or the display path
	// ("python/sglang/test/**"), or the absolute path if it is absolute.
	// A trailing "/" is ignored.
	Exclude []string
	// NoDefaultExcludes drops DefaultExcludes (for a config that replaces
	// them rather than extending them).
	NoDefaultExcludes bool
	// Cwd is the directory relative arguments and display paths are
	// relative to; "" means the process's working directory.
	Cwd string
	// ScopeOf, when set, gives the file selection in force in each
	// directory a walk enters: that of the configuration nearest to it,
	// when each file is checked under its own (a config deep in the tree
	// has its say below it). There it decides the default excludes and
	// the .gitignore files, in place of NoDefaultExcludes and
	// RespectGitignore, and its globs add to Exclude. Directories under one
	// configuration share one *Scope. has tells whether dir holds an entry
	// of a name, from the listing the walk has just read, so that looking
	// for config files there costs no system call.
	ScopeOf func(dir string, has func(name string) bool) *Scope
	// Listings, when set, supplies the listings of directories that have
	// not changed since it was recorded, and records this walk's.
	Listings *Listings
}

// Scope is the file selection of one configuration (Options.ScopeOf).
type Scope struct {
	RespectGitignore  bool
	Exclude           []string // matched like Options.Exclude
	NoDefaultExcludes bool
}

// DefaultOptions are what the command line starts from.
func DefaultOptions() Options { return Options{RespectGitignore: true} }

// File is one Python file to check.
type File struct {
	Path     string // display path: relative to Cwd with forward slashes, or absolute when outside it
	Abs      string // absolute path, as reached (symbolic links are not resolved)
	Explicit bool   // named on the command line rather than found by a walk
	// Info is what the walk learnt of the file (its size, times and
	// identity), so that a run need not ask again. Never nil.
	Info fs.FileInfo
}

// Problem is a path that could not be used.
type Problem struct {
	Path    string // display path, or the argument as given
	Message string
	// Warning marks a note that does not fail the run: a dangling symbolic
	// link met during a walk. Other problems (a missing or unreadable
	// argument, a directory that could not be read, a bad glob) mean that
	// something asked for was not checked; the CLI exits 2.
	Warning bool
}

func (p Problem) String() string {
	if p.Warning {
		return fmt.Sprintf("%s: warning: %s", p.Path, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.Path, p.Message)
}

// Find lists the Python files under paths, sorted by display path, each
// file once. Directories are walked for *.py files; files given explicitly
// are always included, whatever their name and even when an exclude or a
// .gitignore would skip them.
func Find(paths []string, opts Options) ([]File, []Problem) {
	w, prob := newWalker(opts)
	if prob != nil {
		return nil, []Problem{*prob}
	}
	for _, p := range paths {
		w.arg(p)
	}
	w.drainDeferred()
	w.settle()
	return w.result()
}

// newWalker validates the options and resolves the working directory.
func newWalker(opts Options) (*walker, *Problem) {
	cwd := opts.Cwd
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, &Problem{Path: ".", Message: fmt.Sprintf("cannot determine the working directory: %v", err)}
		}
		cwd = wd
	}
	cwd, err := filepath.Abs(cwd)
	if err != nil {
		return nil, &Problem{Path: opts.Cwd, Message: err.Error()}
	}
	w := &walker{
		opts:      opts,
		cwd:       cwd,
		seenDirs:  map[fileKey]bool{},
		seenFiles: map[fileKey]int{},
		scopes:    map[*Scope]*scoped{},
	}
	globs := opts.Exclude
	if !opts.NoDefaultExcludes && opts.ScopeOf == nil {
		globs = append(slices.Clip(DefaultExcludes), globs...)
	}
	if err := CheckExcludes(globs); err != nil {
		return nil, &Problem{Path: err.(*GlobError).Glob, Message: "invalid exclude glob"}
	}
	var cleaned []string
	for _, g := range globs {
		cleaned = append(cleaned, cleanGlob(g))
	}
	w.excludes = newGlobSet(cleaned)
	w.base = &scoped{gitignore: opts.RespectGitignore}
	return w, nil
}

// scoped is a Scope ready for matching.
type scoped struct {
	excludes  globSet // cleaned globs, added to the walker's own
	gitignore bool
}

// globSet is a list of exclude globs ready for matching: those that are
// a plain name (most of them: the defaults are) are looked up by name, as
// matching every one against every entry was a fifth of a walk's serial
// time on a whole tree.
type globSet struct {
	names map[string]bool // globs without "/" or a wildcard
	globs []string        // the others, in order
}

func newGlobSet(cleaned []string) globSet {
	var s globSet
	for _, g := range cleaned {
		if !strings.Contains(g, "/") && !strings.ContainsAny(g, `*?[]{}\`) {
			if s.names == nil {
				s.names = map[string]bool{}
			}
			s.names[g] = true
			continue
		}
		s.globs = append(s.globs, g)
	}
	return s
}

// scopeOf returns the selection in force in dir; has tells what dir lists.
func (w *walker) scopeOf(dir string, has func(name string) bool) *scoped {
	if w.opts.ScopeOf == nil {
		return w.base
	}
	s := w.opts.ScopeOf(dir, has)
	if s == nil {
		return w.base
	}
	if sc, ok := w.scopes[s]; ok {
		return sc
	}
	globs := s.Exclude
	if !s.NoDefaultExcludes {
		globs = append(slices.Clip(DefaultExcludes), globs...)
	}
	sc := &scoped{gitignore: s.RespectGitignore}
	var cleaned []string
	for _, g := range globs {
		if clean := cleanGlob(g); clean != "" && doublestar.ValidatePattern(clean) {
			cleaned = append(cleaned, clean)
		}
	}
	sc.excludes = newGlobSet(cleaned)
	w.scopes[s] = sc
	return sc
}

// GlobError is an exclude glob that cannot be read.
type GlobError struct{ Glob string }

func (e *GlobError) Error() string { return e.Glob + ": invalid exclude glob" }

// CheckExcludes reports the first exclude glob Find would refuse, so that
// a command line can stop before looking at any file.
func CheckExcludes(globs []string) error {
	for _, g := range globs {
		if clean := cleanGlob(g); clean == "" || !doublestar.ValidatePattern(clean) {
			return &GlobError{Glob: g}
		}
	}
	return nil
}

// cleanGlob normalises a user glob: forward slashes, no leading "./", no
// trailing "/" (directories and files are matched alike).
func cleanGlob(g string) string {
	g = filepath.ToSlash(g)
	for strings.HasPrefix(g, "./") {
		g = g[2:]
	}
	return strings.TrimRight(g, "/")
}

// display returns abs relative to the working directory when it lies
// inside it, else abs itself; always with forward slashes.
func (w *walker) display(abs string) string {
	if rel, ok := relpath.Inside(w.cwd, abs); ok {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

// result sorts the files and problems; the walk order never leaks out.
func (w *walker) result() ([]File, []Problem) {
	slices.SortFunc(w.files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	slices.SortStableFunc(w.problems, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Message, b.Message))
	})
	return w.files, w.problems
}
