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

// step is an entry of a directory that the walk goes on with: a
// subdirectory, or a Python file.
type step struct {
	abs, rel string
	shown    string
	dir      bool
	info     fs.FileInfo // a file's, when the listing took it
	err      error
}

// walker holds the state of one Find call.
type walker struct {
	opts     Options
	cwd      string
	excludes globSet // cleaned globs, defaults first (unless scopes have them)
	base     *scoped // the selection when Options.ScopeOf is not set
	scopes   map[*Scope]*scoped

	// seenDirs holds every directory entered, by device and inode: a
	// directory is walked at most once, so a symbolic link back to an
	// ancestor ends there instead of looping, and a link to a directory
	// already walked adds nothing twice.
	seenDirs map[fileKey]bool
	// steps is the stack of the entries each directory being walked keeps
	// (walkDir).
	steps []step
	// reached holds the files in the order the walk met them, before
	// settle stats them and keeps one entry per file.
	reached []reachedFile
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
	shown  string  // display path (see walker.display)
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
	if l := w.opts.Listings; l != nil {
		l.walkedFrom(abs)
	}
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
	w.walkDir(dirJob{abs: abs, shown: w.display(abs), ignore: ig})
}

// walkDir lists one directory and recurses into real subdirectories;
// symbolic links to directories are deferred. The entries are judged
// first, then walked in their fixed order, so that the warnings come in
// the same order every run.
func (w *walker) walkDir(job dirJob) {
	entries, ok := w.enterDir(job.abs)
	if !ok {
		return
	}
	// The listing is sorted by name: a lookup in it replaces a stat (or a
	// failed open) per config or ignore file a directory lacks.
	has := func(name string) bool { return hasEntry(entries, name) }
	sc := w.scopeOf(job.abs, has) // the selection its entries are judged by
	ig := job.ignore
	if (w.opts.RespectGitignore || w.opts.ScopeOf != nil) && has(".gitignore") {
		var err error
		ig, err = ig.enter(job.abs)
		if err != nil && sc.gitignore {
			w.warn(w.display(job.abs), err.Error())
		}
	}
	// This directory's steps go at the end of the walker's shared stack
	// (one growing buffer for the whole walk, not a slice per directory);
	// the subdirectories' walks push theirs after them and pop them.
	base := len(w.steps)
	defer func() { w.steps = w.steps[:base] }()
	for _, e := range entries {
		name := e.name
		typ := e.typ
		isLink := typ&fs.ModeSymlink != 0
		if !isLink && !typ.IsDir() && !strings.HasSuffix(name, ".py") {
			continue // most entries: no path is built for them
		}
		abs := joinClean(job.abs, name)
		rel := name
		if job.rel != "" {
			rel = job.rel + "/" + name
		}
		shown := w.joinShown(job.shown, job.abs, abs, name)
		var info fs.FileInfo
		if isLink {
			var err error
			if info, err = os.Stat(abs); err != nil {
				// A link to nothing matters only if it claims to be Python.
				if strings.HasSuffix(name, ".py") {
					w.warn(shown, statMessage(abs, err)+", skipped")
				}
				continue
			}
			typ = info.Mode().Type()
		}
		isDir := typ.IsDir()
		if !isDir && !strings.HasSuffix(name, ".py") {
			continue
		}
		if w.excluded(sc, name, rel, abs, shown) || sc.gitignore && ig.ignored(abs, isDir) {
			continue
		}
		switch {
		case isDir && isLink:
			w.deferredDirs = append(w.deferredDirs, dirJob{abs: abs, rel: rel, shown: shown, ignore: ig})
		case isDir:
			w.steps = append(w.steps, step{abs: abs, rel: rel, shown: shown, dir: true})
		case typ.IsRegular() && isLink:
			w.deferredFiles = append(w.deferredFiles, abs)
		case typ.IsRegular():
			// Stat'ed with the listing, or later with the others, in
			// parallel (settle).
			w.steps = append(w.steps, step{abs: abs, rel: rel, shown: shown, info: e.info, err: e.err})
		default:
			// A pipe, socket or device named *.py: reading it could block.
			w.warn(shown, "not a regular file, skipped")
		}
	}
	steps := w.steps[base:len(w.steps):len(w.steps)] // pushes below write past it
	for _, st := range steps {
		if st.dir {
			w.walkDir(dirJob{abs: st.abs, rel: st.rel, shown: st.shown, ignore: ig})
		} else {
			w.reached = append(w.reached, reachedFile{abs: st.abs, shown: st.shown, info: st.info, err: st.err})
		}
	}
}

// enterDir lists a directory not walked before, sorted by name; ok is false
// for one already walked or that cannot be read (a problem is recorded).
func (w *walker) enterDir(abs string) (entries []entry, ok bool) {
	l := w.listingOf(abs)
	if l.openErr != nil {
		if _, serr := os.Stat(abs); serr != nil {
			w.fail(w.display(abs), statMessage(abs, serr))
		} else {
			w.fail(w.display(abs), fmt.Sprintf("cannot read directory: %v", unwrapPathError(l.openErr)))
		}
		return nil, false
	}
	if l.statErr != nil {
		w.fail(w.display(abs), statMessage(abs, l.statErr))
		return nil, false
	}
	key := keyOf(abs, l.info)
	if w.seenDirs[key] {
		return nil, false
	}
	w.seenDirs[key] = true
	if c := w.opts.Listings; c != nil {
		c.use(abs, l)
	}
	if l.readErr != nil {
		w.fail(w.display(abs), fmt.Sprintf("cannot read directory: %v", unwrapPathError(l.readErr)))
		return nil, false
	}
	return l.entries, true
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
func (w *walker) excluded(sc *scoped, name, rel, abs, shown string) bool {
	for _, set := range [2]*globSet{&w.excludes, &sc.excludes} {
		if set.names[name] {
			return true
		}
		for _, g := range set.globs {
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
			if doublestar.MatchUnvalidated(g, rel) || (shown != rel && doublestar.MatchUnvalidated(g, shown)) {
				return true
			}
		}
	}
	return false
}

// addFile records a file named on the command line or met while draining
// deferred entries, in the order it is reached, with what its stat said
// (a directory's walk appends the files it lists itself, in walkDir).
func (w *walker) addFile(abs string, info fs.FileInfo, explicit bool) {
	w.reached = append(w.reached, reachedFile{abs: abs, info: info, explicit: explicit})
}

// joinShown is the display path of abs, the entry name in the directory
// dir shown as shown: what display returns, without a filepath.Rel per
// entry. Only a directory outside the working directory that holds it
// (`sglint ..`) has entries of both kinds.
func (w *walker) joinShown(shown, dir, abs, name string) string {
	switch {
	case shown == ".":
		return name
	case filepath.IsAbs(filepath.FromSlash(shown)) && within(w.cwd, dir):
		return w.display(abs)
	case strings.HasSuffix(shown, "/"): // the file system root
		return shown + name
	}
	return shown + "/" + name
}

// within reports whether path lies in dir or is dir (both clean).
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir) &&
		(strings.HasSuffix(dir, string(filepath.Separator)) || path[len(dir)] == filepath.Separator)
}

// joinClean is filepath.Join for a clean directory and a base name, without
// Join's Clean: the walk builds a path for every Python file and directory.
func joinClean(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) { // the file system root
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// splitRel splits a slash path into its elements ("" gives none).
func splitRel(rel string) []string {
	if rel == "" || rel == "." {
		return nil
	}
	return slices.DeleteFunc(strings.Split(path.Clean(rel), "/"), func(s string) bool { return s == "" })
}
