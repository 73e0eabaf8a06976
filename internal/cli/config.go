package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/discover"
)

// workdirConfig is the configuration of the working directory (--config
// when given), for commands that check no file: explain reads its records.
// Every problem in the file is printed with its line.
func workdirConfig(configFile string, all []*analyzer.Rule, stderr io.Writer) (*config.Config, bool) {
	cfg, err := config.Resolve(configFile, ".", all)
	if err != nil {
		printErrors[config.Errors](stderr, err)
		return nil, false
	}
	return cfg, true
}

// printErrors prints err on stderr, one line a problem when it is a list
// L of them (config.Errors, records.Errors), so each keeps its own line.
func printErrors[L interface {
	~[]E
	error
}, E error](stderr io.Writer, err error) {
	var es L
	if errors.As(err, &es) {
		for _, e := range es {
			fmt.Fprintf(stderr, "sglint: %s\n", e)
		}
		return
	}
	fmt.Fprintf(stderr, "sglint: %v\n", err)
}

// discoverOptions gives a walk each directory's file selection, from the
// configuration its files are checked under (Resolver): exclude replaces the
// default excludes, extend-exclude adds to them; --exclude adds to every
// directory's, and --respect-gitignore, when given, wins everywhere. Config
// globs with a "/" are relative to the config's directory, so they are made
// absolute (discover matches absolute globs against absolute paths); globs
// without one match base names anywhere and stay as written.
func discoverOptions(res *config.Resolver, o *checkOptions) discover.Options {
	opts := discover.DefaultOptions()
	opts.Exclude = o.excludes
	scopes := map[*config.Config]*discover.Scope{}
	opts.ScopeOf = func(dir string, has func(string) bool) *discover.Scope {
		cfg := res.ForListedDir(dir, has)
		if s, ok := scopes[cfg]; ok {
			return s
		}
		s := &discover.Scope{RespectGitignore: cfg.RespectGitignore, NoDefaultExcludes: cfg.Exclude != nil}
		if o.respectGitignore.set {
			s.RespectGitignore = o.respectGitignore.value
		}
		for _, g := range slices.Concat(cfg.Exclude, cfg.ExtendExclude) {
			s.Exclude = append(s.Exclude, anchorGlob(cfg.Root, g))
		}
		scopes[cfg] = s
		return s
	}
	return opts
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

// boolFlag is a boolean flag that remembers whether it was given, so that
// the config's value holds unless the command line overrides it.
type boolFlag struct{ set, value bool }

func (b *boolFlag) String() string { return fmt.Sprint(b.value) }

func (b *boolFlag) Set(v string) error {
	switch strings.ToLower(v) {
	case "true", "1", "yes":
		b.value = true
	case "false", "0", "no":
		b.value = false
	default:
		return fmt.Errorf("want true or false, got %q", v)
	}
	b.set = true
	return nil
}

func (b *boolFlag) IsBoolFlag() bool { return true }
