package cli

import (
	"fmt"
	"io"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/discover"
)

// findInputs turns the command line's paths into inputs with
// analyzer/discover (gitignore, default and --exclude globs, symbolic
// links); "-" reads one file from standard input. It also returns the
// directory module names are relative to. Problems with Warning set do not
// fail the run.
func findInputs(paths, excludes []string, stdin io.Reader) ([]analyzer.Input, []analyzer.Problem, string) {
	var inputs []analyzer.Input
	var problems []analyzer.Problem
	var onDisk []string
	for _, p := range paths {
		if p != "-" {
			onDisk = append(onDisk, p)
			continue
		}
		in, prob := readStdin(stdin)
		if prob != nil {
			problems = append(problems, *prob)
		} else {
			inputs = append(inputs, in)
		}
	}
	if len(onDisk) == 0 {
		return inputs, problems, discover.ProjectRoot([]string{"."})
	}
	opts := discover.DefaultOptions()
	opts.Exclude = excludes
	files, found := discover.Find(onDisk, opts)
	for _, p := range found {
		problems = append(problems, analyzer.Problem{Path: p.Path, Message: p.Message, Warning: p.Warning})
	}
	for _, f := range files {
		inputs = append(inputs, analyzer.Input{Path: f.Path, Abs: f.Abs, Report: true})
	}
	return inputs, problems, discover.ProjectRoot(onDisk)
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
