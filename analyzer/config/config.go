// Package config reads sglint's settings: the [tool.sglint] table of a
// pyproject.toml, or the top level of a standalone sglint.toml, found by
// walking up from the first path or named with --config. It validates every
// key, type and rule ID (including each rule's own options, declared by the
// rule's Options hook) and reports problems with file, line and key.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	toml "github.com/pelletier/go-toml/v2"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/internal/relpath"
)

// File names searched in each directory, in order of precedence.
const (
	StandaloneName = "sglint.toml"
	PyprojectName  = "pyproject.toml"
)

// Config is the resolved configuration of one run.
type Config struct {
	File string // the config file read; "" when none was found
	Root string // absolute directory relative paths and globs are resolved against

	// Selection is the file's select / extend-select / ignore: the first
	// layer of analyzer.SelectLayers, before the command line's.
	Selection analyzer.Selection

	// Exclude replaces the default excludes when non-nil; ExtendExclude adds
	// to them. Globs, relative to Root.
	Exclude, ExtendExclude []string
	PerFileIgnores         []PerFileIgnore // sorted by pattern
	RespectGitignore       bool            // default true
	Records                []string        // absolute paths of record files (issue 9)

	// RuleOptions holds the decoded options of the rules the file
	// configures, by rule ID; see checker.Options.RuleOptions.
	RuleOptions map[string]any
	// SectionOptions holds the decoded shared settings tables
	// ([tool.sglint.<key>], declared by the rules' Sections), by key; see
	// checker.Options.SectionOptions.
	SectionOptions map[string]any
}

// PerFileIgnore disables rules for files matching a glob.
type PerFileIgnore struct {
	Pattern string   // doublestar glob relative to Root; without "/" it also matches base names
	Rules   []string // the rule IDs its selectors expand to, sorted
}

// fileSchema is the set of keys the file may hold. Decoded by the
// located decoder, so every unknown key and wrong type names its line.
type fileSchema struct {
	Select           []string            `toml:"select"`
	Ignore           []string            `toml:"ignore"`
	ExtendSelect     []string            `toml:"extend-select"`
	Exclude          []string            `toml:"exclude"`
	ExtendExclude    []string            `toml:"extend-exclude"`
	PerFileIgnores   map[string][]string `toml:"per-file-ignores"`
	RespectGitignore *bool               `toml:"respect-gitignore"`
	Records          []string            `toml:"records"`
	Rules            map[string]any      `toml:"rules"`
}

// Default returns the configuration used when no file is found, rooted at
// root.
func Default(root string) *Config {
	return &Config{Root: root, RespectGitignore: true}
}

// Resolve returns the configuration for a run: the file named by flagFile
// when it is not empty, else the one Find locates from firstPath, else the
// defaults rooted at the working directory.
func Resolve(flagFile, firstPath string, rules []*analyzer.Rule) (*Config, error) {
	file := flagFile
	if file == "" {
		found, err := Find(firstPath)
		if err != nil {
			return nil, err
		}
		file = displayPath(found)
	}
	if file == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		return Default(wd), nil
	}
	return Load(file, rules)
}

// Find walks up from path (a file or directory) and returns the first
// sglint.toml, or pyproject.toml holding a [tool.sglint] table, it meets;
// "" if there is none up to the filesystem root. A pyproject.toml that is
// not valid TOML is an error, as with ruff.
func Find(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir := abs
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		dir = filepath.Dir(abs)
	}
	for {
		if f := filepath.Join(dir, StandaloneName); isFile(f) {
			return f, nil
		}
		if f := filepath.Join(dir, PyprojectName); isFile(f) {
			has, err := hasToolTable(displayPath(f)) // errors show the path as everywhere else
			if err != nil {
				return "", err
			}
			if has {
				return f, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// displayPath shows a found file relative to the working directory when it
// lies inside it, as paths are shown everywhere else.
func displayPath(abs string) string {
	if abs == "" {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	rel, ok := relpath.Inside(wd, abs)
	if !ok {
		return abs
	}
	return rel
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

func hasToolTable(file string) (bool, error) {
	doc, err := readTOML(file)
	if err != nil {
		return false, err
	}
	_, ok := lookupTable(doc, []string{"tool", "sglint"})
	return ok, nil
}

// readTOML decodes a whole file generically; syntax errors carry go-toml's
// line and column.
func readTOML(file string) (map[string]any, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read config: %w", file, unwrapPathError(err))
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, Errors{{File: file, Line: line, Column: col, Msg: "invalid TOML: " + strings.TrimPrefix(de.Error(), "toml: ")}}
		}
		return nil, &Error{File: file, Msg: "invalid TOML: " + err.Error()}
	}
	return doc, nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// pyprojectShaped reports whether doc has a top-level table that only a
// pyproject.toml holds ([tool], [project], [build-system]); none of them is
// a key of sglint.toml.
func pyprojectShaped(doc map[string]any) bool {
	for _, k := range []string{"tool", "project", "build-system"} {
		if _, ok := doc[k].(map[string]any); ok {
			return true
		}
	}
	return false
}

func lookupTable(doc map[string]any, path []string) (map[string]any, bool) {
	cur := doc
	for _, k := range path {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil, false
		}
		cur = next
	}
	return cur, true
}

// Load reads a config file: [tool.sglint] of a file named pyproject.toml or
// shaped like one (another name given with --config, such as sglang's
// pyproject_cpu.toml), the top level of any other (sglint.toml). rules are the registered rules,
// used to validate selectors and decode rule options. The error, if any, is
// an Errors listing every problem with its line.
func Load(file string, rules []*analyzer.Rule) (*Config, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return nil, &Error{File: file, Msg: "is a directory, not a config file"}
	}
	doc, err := readTOML(file)
	if err != nil {
		return nil, err
	}
	data, _ := os.ReadFile(file) // read fine a moment ago; positions only
	d := &decoder{file: file, pos: indexPositions(data)}

	var base []string
	table := doc
	if filepath.Base(file) == PyprojectName || pyprojectShaped(doc) {
		base = []string{"tool", "sglint"}
		t, ok := lookupTable(doc, base)
		if !ok {
			return nil, &Error{File: file, Msg: "no [tool.sglint] table"}
		}
		table = t
	}

	// Shared sections are tables of their own, decoded against their
	// declarations; the rest must fit the file schema.
	sections := sectionsOf(rules)
	rest := table
	if len(sections) > 0 {
		rest = make(map[string]any, len(table))
		for k, v := range table {
			if _, ok := sections[k]; !ok {
				rest[k] = v
			}
		}
	}
	var raw fileSchema
	d.decode(base, rest, reflect.ValueOf(&raw).Elem())

	c := Default(filepath.Dir(abs))
	c.File = file
	c.Selection = analyzer.Selection{Select: raw.Select, ExtendSelect: raw.ExtendSelect, Ignore: raw.Ignore}
	c.Exclude, c.ExtendExclude = raw.Exclude, raw.ExtendExclude
	if raw.RespectGitignore != nil {
		c.RespectGitignore = *raw.RespectGitignore
	}
	for _, r := range raw.Records {
		if !filepath.IsAbs(r) {
			r = filepath.Join(c.Root, filepath.FromSlash(r))
		}
		c.Records = append(c.Records, r)
	}

	// Values that failed to decode are not checked again.
	failed := map[string]bool{}
	for _, e := range d.errs {
		failed[e.Key] = true
	}
	for key, sels := range map[string][]string{"select": raw.Select, "ignore": raw.Ignore, "extend-select": raw.ExtendSelect} {
		for i, s := range sels {
			path := append(slices.Clone(base), key, fmt.Sprintf("[%d]", i))
			if _, err := analyzer.MatchSelector(rules, s); err != nil && !failed[dotted(path)] {
				d.errorf(path, "unknown rule selector %q%s", s, didYouMean(s, selectorWords(rules)))
			}
		}
	}
	for key, globs := range map[string][]string{"exclude": raw.Exclude, "extend-exclude": raw.ExtendExclude} {
		for i, g := range globs {
			if !doublestar.ValidatePattern(g) {
				d.errorf(append(slices.Clone(base), key, fmt.Sprintf("[%d]", i)), "invalid glob %q", g)
			}
		}
	}
	c.PerFileIgnores = d.perFileIgnores(base, raw.PerFileIgnores, rules, failed)
	c.RuleOptions = d.ruleOptions(append(slices.Clone(base), "rules"), raw.Rules, rules)
	c.SectionOptions = d.sectionOptions(base, table, sections)

	if len(d.errs) > 0 {
		d.errs.sort()
		return nil, d.errs
	}
	return c, nil
}

func (d *decoder) perFileIgnores(base []string, m map[string][]string, rules []*analyzer.Rule, failed map[string]bool) []PerFileIgnore {
	var out []PerFileIgnore
	for _, pattern := range sortedKeys(anyMap(m)) {
		path := append(slices.Clone(base), "per-file-ignores", pattern)
		if !doublestar.ValidatePattern(pattern) {
			d.errorf(path, "invalid glob %q", pattern)
			continue
		}
		ids := map[string]bool{}
		for i, s := range m[pattern] {
			matched, err := analyzer.MatchSelector(rules, s)
			if elem := append(slices.Clone(path), fmt.Sprintf("[%d]", i)); err != nil && !failed[dotted(elem)] {
				d.errorf(elem, "unknown rule selector %q%s", s, didYouMean(s, selectorWords(rules)))
			}
			for _, r := range matched {
				ids[r.ID] = true
			}
		}
		pfi := PerFileIgnore{Pattern: filepath.ToSlash(pattern)}
		for id := range ids {
			pfi.Rules = append(pfi.Rules, id)
		}
		slices.Sort(pfi.Rules)
		out = append(out, pfi)
	}
	return out
}

// selectorWords are the candidates for "did you mean": IDs and names.
func selectorWords(all []*analyzer.Rule) []string {
	var words []string
	for _, r := range all {
		words = append(words, r.ID, r.Name)
	}
	return words
}

func anyMap[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// movedKeys lists, sorted, the keys of a rule's table that the rule no
// longer reads because they moved (Rule.MovedOptions).
func movedKeys(r *analyzer.Rule, table any) []string {
	m, ok := table.(map[string]any)
	if !ok || len(r.MovedOptions) == 0 {
		return nil
	}
	var out []string
	for _, k := range sortedKeys(m) {
		if _, ok := r.MovedOptions[k]; ok {
			out = append(out, k)
		}
	}
	return out
}

// ruleOptions decodes [rules.<ID>] tables into the values the rules' Options
// hooks return, then runs their Validate methods.
func (d *decoder) ruleOptions(path []string, tables map[string]any, rules []*analyzer.Rule) map[string]any {
	byID, byName := map[string]*analyzer.Rule{}, map[string]*analyzer.Rule{}
	var ids []string
	for _, r := range rules {
		byID[r.ID], byName[r.Name] = r, r
		ids = append(ids, r.ID)
	}
	out := map[string]any{}
	for _, id := range sortedKeys(tables) {
		rpath := append(slices.Clone(path), id)
		r := byID[id]
		switch {
		case r == nil && byName[id] != nil:
			d.errorf(rpath, "rule options are keyed by rule ID: use %s", byName[id].ID)
			continue
		case r == nil:
			d.errorf(rpath, "unknown rule ID%s", didYouMean(id, ids))
			continue
		}
		if moved := movedKeys(r, tables[id]); len(moved) > 0 {
			for _, m := range moved {
				d.errorf(append(slices.Clone(rpath), m), "moved to %s (one setting for every rule that reads it)", r.MovedOptions[m])
			}
			continue
		}
		if r.Options == nil {
			d.errorf(rpath, "rule %s (%s) has no options", r.ID, r.Name)
			continue
		}
		opts := r.Options()
		v := reflect.ValueOf(opts)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			d.errorf(rpath, "rule %s: Options must return a pointer to a struct, not %T", r.ID, opts)
			continue
		}
		before := len(d.errs)
		d.decode(rpath, tables[id], v.Elem())
		if len(d.errs) > before {
			continue
		}
		if val, ok := opts.(interface{ Validate() error }); ok {
			if err := val.Validate(); err != nil {
				d.errorf(rpath, "%v", err)
				continue
			}
		}
		out[id] = opts
	}
	return out
}

// sectionsOf collects the shared sections the rules declare, by key.
func sectionsOf(rules []*analyzer.Rule) map[string]*analyzer.Section {
	out := map[string]*analyzer.Section{}
	for _, r := range rules {
		for _, s := range r.Sections {
			out[s.Key] = s
		}
	}
	return out
}

// sectionOptions decodes the shared sections present in table into the
// values their Options hooks return, then runs their Validate methods.
func (d *decoder) sectionOptions(base []string, table map[string]any, sections map[string]*analyzer.Section) map[string]any {
	out := map[string]any{}
	for _, key := range sortedKeys(anyMap(sections)) {
		v, ok := table[key]
		if !ok {
			continue
		}
		sec := sections[key]
		path := append(slices.Clone(base), key)
		if sec.Options == nil {
			d.errorf(path, "section %s takes no settings", key)
			continue
		}
		opts := sec.Options()
		before := len(d.errs)
		d.decode(path, v, reflect.ValueOf(opts).Elem())
		if len(d.errs) > before {
			continue
		}
		if val, ok := opts.(interface{ Validate() error }); ok {
			if err := val.Validate(); err != nil {
				d.errorf(path, "%v", err)
				continue
			}
		}
		out[key] = opts
	}
	return out
}

// PerFileIgnored reports whether per-file-ignores disable rule id for the
// file at path (absolute, or relative to the working directory). Patterns
// match the path relative to Root; a pattern without "/" also matches the
// base name, so "__init__.py" works at any depth.
func (c *Config) PerFileIgnored(path, id string) bool {
	if len(c.PerFileIgnores) == 0 {
		return false
	}
	rel := c.relative(path)
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	for _, p := range c.PerFileIgnores {
		if _, ok := slices.BinarySearch(p.Rules, id); !ok {
			continue
		}
		if ok, _ := doublestar.Match(p.Pattern, rel); ok {
			return true
		}
		if !strings.Contains(p.Pattern, "/") {
			if ok, _ := doublestar.Match(p.Pattern, base); ok {
				return true
			}
		}
	}
	return false
}

// relative returns path relative to Root with forward slashes; a path
// outside Root stays absolute.
func (c *Config) relative(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	rel, ok := relpath.Inside(c.Root, abs)
	if !ok {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}
