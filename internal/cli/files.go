package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sglint/sglint/analyzer"
)

// defaultExcludes are directory names never searched.
var defaultExcludes = map[string]bool{
	".git": true, "__pycache__": true, ".venv": true, "venv": true, "build": true,
	"dist": true, "node_modules": true, ".tox": true, ".mypy_cache": true,
}

// findInputs turns the command line's paths into inputs. It is the seam for
// file discovery: a plain walk with the default excludes and --exclude
// globs (matched against names and slash paths), until analyzer/discover
// (gitignore, symlink loops) replaces it. Problems are paths that were asked
// for and cannot be read.
func findInputs(paths, excludes []string, stdin io.Reader) ([]analyzer.Input, []analyzer.Problem) {
	var inputs []analyzer.Input
	var problems []analyzer.Problem
	for _, g := range excludes {
		if _, err := filepath.Match(g, ""); err != nil {
			problems = append(problems, analyzer.Problem{Path: g, Message: "invalid --exclude glob"})
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	excluded := func(path, name string) bool {
		for _, g := range excludes {
			if ok, _ := filepath.Match(g, name); ok {
				return true
			}
			if ok, _ := filepath.Match(g, filepath.ToSlash(path)); ok {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{}
	add := func(path string) {
		abs, err := filepath.Abs(path)
		if err != nil || seen[abs] {
			return
		}
		seen[abs] = true
		inputs = append(inputs, analyzer.Input{Path: displayPath(path), Abs: abs, Report: true})
	}
	for _, p := range paths {
		if p == "-" {
			in, prob := readStdin(stdin)
			if prob != nil {
				problems = append(problems, *prob)
			} else {
				inputs = append(inputs, in)
			}
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			problems = append(problems, analyzer.Problem{Path: p, Message: fmt.Sprintf("cannot read: %v", unwrap(err))})
			continue
		}
		if !st.IsDir() {
			add(p) // named explicitly: checked whatever its name
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				problems = append(problems, analyzer.Problem{Path: displayPath(path), Message: fmt.Sprintf("cannot read: %v", unwrap(err))})
				return nil
			}
			if path != p && (d.IsDir() && defaultExcludes[d.Name()] || excluded(path, d.Name())) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".py") && d.Type()&fs.ModeType&^fs.ModeSymlink == 0 {
				add(path)
			}
			return nil
		})
		if err != nil {
			problems = append(problems, analyzer.Problem{Path: p, Message: err.Error()})
		}
	}
	return inputs, problems
}

func readStdin(stdin io.Reader) (analyzer.Input, *analyzer.Problem) {
	if stdin == nil {
		return analyzer.Input{}, &analyzer.Problem{Path: "-", Message: "cannot read: no standard input"}
	}
	src, err := io.ReadAll(stdin)
	if err != nil {
		return analyzer.Input{}, &analyzer.Problem{Path: "-", Message: fmt.Sprintf("cannot read: %v", err)}
	}
	return analyzer.Input{Path: "-", Src: src, Report: true}, nil
}

// displayPath is path relative to the working directory, with slashes.
func displayPath(path string) string {
	if filepath.IsAbs(path) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, path); err == nil {
				path = rel
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(path))
}

func unwrap(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
