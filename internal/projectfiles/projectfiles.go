// Package projectfiles decides which files of a project a run loads, so
// that the command line and the language server decide it alike: whether
// a directory is a real project (its whole tree is loaded as context) and
// which files a configuration's excludes leave.
package projectfiles

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/discover"
)

// Scope is the file selection of cfg: exclude replaces the default
// excludes, extend-exclude adds to them. Globs with a "/" are relative to
// the config's directory, so they are made absolute (discover matches
// absolute globs against absolute paths); globs without one match base
// names anywhere and stay as written.
func Scope(cfg *config.Config) *discover.Scope {
	s := &discover.Scope{RespectGitignore: cfg.RespectGitignore, NoDefaultExcludes: cfg.Exclude != nil}
	for _, g := range slices.Concat(cfg.Exclude, cfg.ExtendExclude) {
		s.Exclude = append(s.Exclude, anchorGlob(cfg.Root, g))
	}
	return s
}

// anchorGlob makes a config glob containing "/" absolute under root.
func anchorGlob(root, glob string) string {
	g := strings.TrimPrefix(filepath.ToSlash(glob), "./")
	if !strings.Contains(strings.TrimSuffix(g, "/"), "/") || strings.HasPrefix(g, "/") {
		return glob
	}
	return globEscape(filepath.ToSlash(root)) + "/" + g
}

// globEscape quotes the characters doublestar treats as syntax.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Options are discover's options for a walk in which the files of each
// directory are selected by the configuration res resolves for it (Scope
// of the nearest settings file), as both the command line and the language
// server walk a project; respectGitignore, when not nil, overrides every
// configuration's. A configuration that does not load selects as the
// defaults do (res.Err tells; a caller that checks a file under it must
// refuse to).
func Options(res *config.Resolver, respectGitignore *bool) discover.Options {
	opts := discover.DefaultOptions()
	scopes := map[*config.Config]*discover.Scope{}
	opts.ScopeOf = func(dir string, has func(string) bool) *discover.Scope {
		cfg := res.ForListedDir(dir, has)
		if s, ok := scopes[cfg]; ok {
			return s
		}
		s := Scope(cfg)
		if respectGitignore != nil {
			s.RespectGitignore = *respectGitignore
		}
		scopes[cfg] = s
		return s
	}
	return opts
}
