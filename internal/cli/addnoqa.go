package cli

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/noqa"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/internal/atomicwrite"
	"github.com/sglint/sglint/rules/unusednoqa"
)

// addNoqa writes a `# noqa: CODES` directive for every current finding, on
// the finding's first line: the only mode that writes to checked files.
// Each file is re-read, edited by noqa.AddToSource (which verifies its
// result) and replaced atomically with its permissions kept. A file that
// changed since it was checked is left alone.
func addNoqa(ds []analyzer.Diagnostic, set *inputSet, stderr io.Writer, failed bool) int {
	byPath := map[string]map[int][]string{}
	var paths []string
	for _, d := range ds {
		if d.Rule == unusednoqa.Rule {
			continue // a noqa for "this noqa is unused" would be read as used by itself
		}
		if byPath[d.Path] == nil {
			byPath[d.Path] = map[int][]string{}
			paths = append(paths, d.Path)
		}
		byPath[d.Path][d.Start.Line] = append(byPath[d.Path][d.Start.Line], d.Rule.ID)
	}
	slices.Sort(paths)
	p := syntax.NewParser()
	defer p.Close()
	directives, files := 0, 0
	for _, path := range paths {
		abs, src, ok := readForEdit(set, path, stderr)
		if !ok {
			failed = failed || abs != ""
			continue
		}
		out, n, skipped, err := noqa.AddToSource(p, src, byPath[path])
		for _, s := range skipped {
			fmt.Fprintf(stderr, "sglint: %s:%d: warning: no noqa added: %s\n", path, s.Line, s.Reason)
		}
		if err != nil {
			fmt.Fprintf(stderr, "sglint: %s: internal error: %v; file not changed\n", path, err)
			failed = true
			continue
		}
		if n == 0 {
			continue
		}
		if err := atomicwrite.WriteFile(abs, out, 0o644); err != nil {
			fmt.Fprintf(stderr, "sglint: %s: cannot write: %v\n", path, err)
			failed = true
			continue
		}
		directives += n
		files++
	}
	fmt.Fprintf(stderr, "sglint: added %d noqa directive(s) in %d file(s)\n", directives, files)
	if failed {
		return ExitError
	}
	return ExitClean
}

// readForEdit reads a checked file to edit it: its absolute path and
// content, unless it is not on disk (abs "") or changed since it was
// checked or cannot be read (said on stderr; ok false, abs set).
func readForEdit(set *inputSet, path string, stderr io.Writer) (abs string, src []byte, ok bool) {
	abs, before := set.onDisk(path)
	if abs == "" {
		return "", nil, false
	}
	if now, err := os.Stat(abs); err != nil || before == nil ||
		!now.ModTime().Equal(before.ModTime()) || now.Size() != before.Size() {
		fmt.Fprintf(stderr, "sglint: %s: changed while being checked; not edited\n", path)
		return abs, nil, false
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		fmt.Fprintf(stderr, "sglint: %s: cannot read: %v\n", path, err)
		return abs, nil, false
	}
	return abs, src, true
}
