package config

import (
	"os"
	"path/filepath"

	"github.com/sglint/sglint/analyzer"
)

// Resolver gives each file the configuration it is checked under, as ruff
// does: the file named with --config for every file, else the nearest
// sglint.toml, or pyproject.toml with a [tool.sglint] table, walking up
// from the file's directory; the defaults (rooted at the working
// directory) for a file under none. So the order of the paths on a command
// line changes nothing. Each config file is read once, and each directory
// looked at once.
type Resolver struct {
	rules []*analyzer.Rule
	fixed *Config
	def   *Config
	dirs  map[string]*Config // absolute directory -> the configuration of its files
	// broken holds the stand-ins for config files that could not be
	// loaded, with their errors.
	broken map[*Config]error
	cwd    string // the working directory, asked once (os.Getwd stats it)
}

// NewResolver returns a resolver; flagFile, when not empty, is loaded now
// and applies to every file.
func NewResolver(flagFile string, rules []*analyzer.Rule) (*Resolver, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	r := &Resolver{rules: rules, def: Default(wd), dirs: map[string]*Config{}, broken: map[*Config]error{}, cwd: wd}
	if flagFile != "" {
		if r.fixed, err = Load(flagFile, rules); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// ForFile returns the configuration of the file at path (absolute, or
// relative to the working directory).
func (r *Resolver) ForFile(path string) *Config {
	return r.ForDir(filepath.Dir(r.abs(path)))
}

// abs makes path absolute against the working directory read once:
// filepath.Abs asks the file system for it at every call, once per file of
// a tree.
func (r *Resolver) abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(r.cwd, path)
}

// ForDir returns the configuration of the files directly in dir. For a
// config file that cannot be read or has errors it returns a stand-in with
// the defaults, for which Err returns the errors: a file checked under it
// must not be, while a file merely loaded as context may be.
func (r *Resolver) ForDir(dir string) *Config {
	if r.fixed != nil {
		return r.fixed
	}
	return r.forDir(r.abs(dir), nil)
}

// ForListedDir is ForDir for a directory whose entries the caller has just
// listed: listed(name) tells whether dir holds an entry of that name, so a
// walk asks the file system nothing for the many directories without a
// config file (two stats each otherwise).
func (r *Resolver) ForListedDir(dir string, listed func(name string) bool) *Config {
	if r.fixed != nil {
		return r.fixed
	}
	return r.forDir(r.abs(dir), listed)
}

// forDir resolves dir, then its parents as needed (listed, when not nil,
// is dir's listing; parents are looked up on disk).
func (r *Resolver) forDir(dir string, listed func(name string) bool) *Config {
	if c, ok := r.dirs[dir]; ok {
		return c
	}
	c := r.own(dir, listed)
	if c == nil {
		if parent := filepath.Dir(dir); parent != dir {
			c = r.forDir(parent, nil)
		} else {
			c = r.def
		}
	}
	r.dirs[dir] = c
	return c
}

// own loads dir's own configuration, nil when it has none: sglint.toml
// first, then a pyproject.toml that has [tool.sglint]. listed, when not
// nil, rules out the names dir does not hold without a stat.
func (r *Resolver) own(dir string, listed func(name string) bool) *Config {
	// A name is joined to dir only if the listing has it: a walk asks this
	// of every directory, and most hold neither.
	present := func(name string) (string, bool) {
		if listed != nil && !listed(name) {
			return "", false
		}
		file := filepath.Join(dir, name)
		return file, isFile(file)
	}
	file, ok := present(StandaloneName)
	if !ok {
		if file, ok = present(PyprojectName); !ok {
			return nil
		}
		has, err := hasToolTable(displayPath(file))
		if err != nil {
			return r.fail(dir, err)
		}
		if !has {
			return nil
		}
	}
	c, err := Load(displayPath(file), r.rules)
	if err != nil {
		return r.fail(dir, err)
	}
	return c
}

func (r *Resolver) fail(dir string, err error) *Config {
	c := Default(dir)
	r.broken[c] = err
	return c
}

// Err returns the problems of the config file c stands in for (an Errors
// when there are several), nil for a configuration that loaded.
func (r *Resolver) Err(c *Config) error { return r.broken[c] }
