package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// walker holds the state of one Find call.
type walker struct {
	opts     Options
	cwd      string
	excludes []string // cleaned globs, defaults first (unless scopes have them)
	base     *scoped  // the selection when Options.ScopeOf is not set
	scopes   map[*Scope]*scoped

	// seenDirs holds every directory entered, by device and inode: a
	// directory is walked at most once, so a symbolic link back to an
	// ancestor ends there instead of looping, and a link to a directory
	// already walked adds nothing twice.
	seenDirs map[fileKey]bool
	// seenFiles maps a file to its index in files (one entry per file even
	// when it is reached through links or overlapping arguments).
	seenFiles map[fileKey]int
	// deferredDirs and deferredFiles hold symbolic links met in walks.
	// They are followed after every real directory has been walked, so a
	// file reached both ways is listed under its real path.
	deferredDirs  []dirJob
	deferredFiles []string

	files    []File
	problems []Problem
}

// dirJob is one directory to walk.
type dirJob struct {
	abs    string  // path as reached (links unresolved)
	rel    string  // relative to the walk root, forward slashes ("" for the root)
	ignore *ignore // .gitignore rules in force above this directory, or nil
}

// arg handles one command-line path.
func (w *walker) arg(p string) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.cwd, abs)
	}
	abs = filepath.Clean(abs)
	shown := filepath.ToSlash(p)
	info, err := os.Stat(abs)
	if err != nil {
		w.fail(shown, statMessage(abs, err))
		return
	}
	if info.IsDir() {
		w.walkRoot(abs)
		return
	}
	// Any other kind of file named explicitly is checked, whatever its
	// name: a regular file, or a pipe such as bash's <(...).
	w.addFile(abs, info, true)
}

// statMessage explains why a path could not be stat'ed, telling a dangling
// symbolic link apart from a missing path.
func statMessage(abs string, err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		if li, lerr := os.Lstat(abs); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(abs)
			return fmt.Sprintf("dangling symbolic link (target %q does not exist)", target)
		}
		return "no such file or directory"
	}
	return fmt.Sprintf("cannot read: %v", unwrapPathError(err))
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (w *walker) fail(path, msg string) {
	w.problems = append(w.problems, Problem{Path: path, Message: msg})
}

func (w *walker) warn(path, msg string) {
	w.problems = append(w.problems, Problem{Path: path, Message: msg, Warning: true})
}

// walkRoot walks a directory named on the command line. The root itself is
// walked even when its name is excluded or ignored: it was asked for.
func (w *walker) walkRoot(abs string) {
	var ig *ignore
	// With scopes, a directory below may honour .gitignore files where
	// the root does not: keep the chain at hand either way.
	if w.opts.RespectGitignore || w.opts.ScopeOf != nil {
		var err error
		ig, err = ignoreAbove(abs)
		if err != nil {
			w.warn(w.display(abs), err.Error())
		}
	}
	w.walkDir(dirJob{abs: abs, ignore: ig})
}

// walkDir lists one directory and recurses into real subdirectories;
// symbolic links to directories are deferred.
func (w *walker) walkDir(job dirJob) {
	info, err := os.Stat(job.abs)
	if err != nil {
		w.fail(w.display(job.abs), statMessage(job.abs, err))
		return
	}
	key := keyOf(job.abs, info)
	if w.seenDirs[key] {
		return
	}
	w.seenDirs[key] = true

	entries, err := os.ReadDir(job.abs)
	if err != nil {
		w.fail(w.display(job.abs), fmt.Sprintf("cannot read directory: %v", unwrapPathError(err)))
		return
	}
	sc := w.scopeOf(job.abs) // the selection its entries are judged by
	ig := job.ignore
	if w.opts.RespectGitignore || w.opts.ScopeOf != nil {
		var err error
		ig, err = ig.enter(job.abs)
		if err != nil && sc.gitignore {
			w.warn(w.display(job.abs), err.Error())
		}
	}
	// os.ReadDir sorts by name, so the walk order is fixed.
	for _, e := range entries {
		name := e.Name()
		abs := filepath.Join(job.abs, name)
		rel := name
		if job.rel != "" {
			rel = job.rel + "/" + name
		}
		typ := e.Type()
		isLink := typ&fs.ModeSymlink != 0
		var info fs.FileInfo
		if isLink {
			info, err = os.Stat(abs)
			if err != nil {
				// A link to nothing matters only if it claims to be Python.
				if strings.HasSuffix(name, ".py") {
					w.warn(w.display(abs), statMessage(abs, err)+", skipped")
				}
				continue
			}
			typ = info.Mode().Type()
		}
		isDir := typ.IsDir()
		if !isDir && !strings.HasSuffix(name, ".py") {
			continue
		}
		if w.excluded(sc, name, rel, abs) || sc.gitignore && ig.ignored(abs, isDir) {
			continue
		}
		switch {
		case isDir && isLink:
			w.deferredDirs = append(w.deferredDirs, dirJob{abs: abs, rel: rel, ignore: ig})
		case isDir:
			w.walkDir(dirJob{abs: abs, rel: rel, ignore: ig})
		case typ.IsRegular() && isLink:
			w.deferredFiles = append(w.deferredFiles, abs)
		case typ.IsRegular():
			if info == nil {
				if info, err = e.Info(); err != nil {
					w.fail(w.display(abs), statMessage(abs, err))
					continue
				}
			}
			w.addFile(abs, info, false)
		default:
			// A pipe, socket or device named *.py: reading it could block.
			w.warn(w.display(abs), "not a regular file, skipped")
		}
	}
}

// drainDeferred follows the symbolic links met so far: directories first
// (and the links met while walking them), then files.
func (w *walker) drainDeferred() {
	for len(w.deferredDirs) > 0 {
		job := w.deferredDirs[0]
		w.deferredDirs = w.deferredDirs[1:]
		w.walkDir(job)
	}
	for _, abs := range w.deferredFiles {
		// Stat again: the link was resolved once already, but the file may
		// be gone by now.
		info, err := os.Stat(abs)
		if err != nil {
			w.fail(w.display(abs), statMessage(abs, err))
			continue
		}
		w.addFile(abs, info, false)
	}
	w.deferredFiles = nil
}

// excluded reports whether a default, user or scope glob matches the entry: a
// glob without "/" is matched against the base name, at any depth; an
// absolute glob against the absolute path; another glob with a "/" against
// the path relative to the walk root and the display path.
func (w *walker) excluded(sc *scoped, name, rel, abs string) bool {
	shown := ""
	for _, globs := range [2][]string{w.excludes, sc.excludes} {
		for _, g := range globs {
			if !strings.Contains(g, "/") {
				if doublestar.MatchUnvalidated(g, name) {
					return true
				}
				continue
			}
			if strings.HasPrefix(g, "/") {
				if doublestar.MatchUnvalidated(g, filepath.ToSlash(abs)) {
					return true
				}
				continue
			}
			if shown == "" {
				shown = w.display(abs)
			}
			if doublestar.MatchUnvalidated(g, rel) || (shown != rel && doublestar.MatchUnvalidated(g, shown)) {
				return true
			}
		}
	}
	return false
}

// addFile records a file once, however many times it is reached; the first
// path it was reached by is kept.
func (w *walker) addFile(abs string, info fs.FileInfo, explicit bool) {
	key := keyOf(abs, info)
	if i, ok := w.seenFiles[key]; ok {
		w.files[i].Explicit = w.files[i].Explicit || explicit
		return
	}
	w.seenFiles[key] = len(w.files)
	w.files = append(w.files, File{Path: w.display(abs), Abs: abs, Explicit: explicit, Info: info})
}

// splitRel splits a slash path into its elements ("" gives none).
func splitRel(rel string) []string {
	if rel == "" || rel == "." {
		return nil
	}
	return slices.DeleteFunc(strings.Split(path.Clean(rel), "/"), func(s string) bool { return s == "" })
}
