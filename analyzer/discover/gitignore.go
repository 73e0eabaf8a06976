package discover

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignore is the set of gitignore patterns in force in one directory.
// Patterns are matched against paths relative to base, split into
// elements; each pattern carries the directory of its file as its domain.
// Values are immutable: entering a directory with its own .gitignore makes
// a new value, so siblings never see each other's rules.
type ignore struct {
	base     string
	patterns []gitignore.Pattern // lowest priority first
	matcher  gitignore.Matcher
}

// ignoreAbove returns the rules in force at the walk root dir, before its
// own .gitignore: inside a git repository, the repository's
// .git/info/exclude and the .gitignore files from the repository root down
// to dir's parent; outside one, none. If those rules ignore dir itself, they
// are dropped: a directory named on the command line is walked as asked.
func ignoreAbove(dir string) (*ignore, error) {
	repo := RepoRoot(dir)
	if repo == "" {
		return &ignore{base: dir}, nil
	}
	ig := &ignore{base: repo}
	var errs []error
	if gd := gitDir(repo); gd != "" {
		ps, err := readPatterns(filepath.Join(gd, "info", "exclude"), nil)
		errs = append(errs, err)
		ig = ig.with(ps)
	}
	rel, err := filepath.Rel(repo, dir)
	if err != nil {
		return &ignore{base: dir}, nil
	}
	elems := splitRel(filepath.ToSlash(rel))
	for i := range elems {
		ps, err := readPatterns(filepath.Join(repo, filepath.Join(elems[:i]...), ".gitignore"), elems[:i])
		errs = append(errs, err)
		ig = ig.with(ps)
	}
	if len(elems) > 0 && ig.ignored(dir, true) {
		return &ignore{base: dir}, errors.Join(errs...)
	}
	return ig, errors.Join(errs...)
}

// enter returns the rules in force inside dir: ig's plus dir's .gitignore.
func (ig *ignore) enter(dir string) (*ignore, error) {
	rel, err := filepath.Rel(ig.base, dir)
	if err != nil {
		return ig, nil
	}
	ps, err := readPatterns(filepath.Join(dir, ".gitignore"), splitRel(filepath.ToSlash(rel)))
	return ig.with(ps), err
}

// with returns ig extended by ps (ig itself when ps is empty).
func (ig *ignore) with(ps []gitignore.Pattern) *ignore {
	if len(ps) == 0 {
		return ig
	}
	all := append(slices.Clip(ig.patterns), ps...)
	return &ignore{base: ig.base, patterns: all, matcher: gitignore.NewMatcher(all)}
}

// ignored reports whether the rules ignore path abs. A nil ignore ignores
// nothing.
func (ig *ignore) ignored(abs string, isDir bool) bool {
	if ig == nil || ig.matcher == nil {
		return false
	}
	rel, err := filepath.Rel(ig.base, abs)
	if err != nil {
		return false
	}
	elems := splitRel(filepath.ToSlash(rel))
	return len(elems) > 0 && elems[0] != ".." && ig.matcher.Match(elems, isDir)
}

// readPatterns parses one gitignore-format file; a missing file has no
// patterns. domain is the file's directory relative to the ignore base.
func readPatterns(file string, domain []string) ([]gitignore.Pattern, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
			return nil, nil
		}
		return nil, fmt.Errorf("cannot read %s: %v", filepath.Base(file), unwrapPathError(err))
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var ps []gitignore.Pattern
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps, nil
}

// RepoRoot returns the nearest directory from dir upward that holds a .git
// entry (a directory, or a file in a worktree or submodule), or "".
func RepoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// gitDir returns the directory holding the repository's info/exclude: .git
// itself, or for a worktree the common directory its .git file leads to.
func gitDir(repo string) string {
	dotgit := filepath.Join(repo, ".git")
	info, err := os.Stat(dotgit)
	if err != nil {
		return ""
	}
	if info.IsDir() {
		return dotgit
	}
	// A worktree or submodule: ".git" holds "gitdir: <path>".
	data, err := os.ReadFile(dotgit)
	if err != nil {
		return ""
	}
	gd, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	gd = strings.TrimSpace(gd)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(repo, gd)
	}
	// A linked worktree shares info/exclude with the main repository.
	if common, err := os.ReadFile(filepath.Join(gd, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gd, c)
		}
		return filepath.Clean(c)
	}
	return gd
}
