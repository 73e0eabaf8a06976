package cli

import (
	"fmt"
	"io"
	"slices"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/fix"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/internal/atomicwrite"
)

// applyFixes is --fix: it applies the safe edits of the findings that
// carry one (today SGL100's: unused noqa codes go) to their files, each
// file re-read, checked unchanged since the run, edited (the result must
// parse as well as before) and replaced atomically with its permissions
// kept. It returns the findings left: those without a fix, or whose file
// could not be edited.
func applyFixes(ds []analyzer.Diagnostic, set *inputSet, stderr io.Writer) (left []analyzer.Diagnostic, ok bool) {
	byPath := map[string][]int{}
	var paths []string
	for i := range ds {
		if ds[i].Fix == nil {
			continue
		}
		if byPath[ds[i].Path] == nil {
			paths = append(paths, ds[i].Path)
		}
		byPath[ds[i].Path] = append(byPath[ds[i].Path], i)
	}
	slices.Sort(paths)
	p := syntax.NewParser()
	defer p.Close()
	fixed := map[int]bool{}
	ok = true
	files := 0
	for _, path := range paths {
		abs, src, read := readForEdit(set, path, stderr)
		if !read {
			ok = ok && abs == ""
			continue
		}
		var edits []analyzer.TextEdit
		for _, i := range byPath[path] {
			edits = append(edits, ds[i].Fix.Edits...)
		}
		out, err := fix.Apply(p, src, edits)
		if err == nil {
			err = atomicwrite.WriteFile(abs, out, 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "sglint: %s: not fixed: %v\n", path, err)
			ok = false
			continue
		}
		for _, i := range byPath[path] {
			fixed[i] = true
		}
		files++
	}
	for i := range ds {
		if !fixed[i] {
			left = append(left, ds[i])
		}
	}
	if len(paths) > 0 {
		fmt.Fprintf(stderr, "sglint: fixed %d finding(s) in %d file(s)\n", len(fixed), files)
	}
	return left, ok
}
