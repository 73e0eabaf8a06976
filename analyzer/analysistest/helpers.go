package analysistest

import (
	"path/filepath"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
)

// Findings runs the rules on the .py files under dir as one project, like
// Run, but returns the findings without comparing them with the `# want:`
// comments: for tests that look at one finding's message or related
// locations, or that count findings under other options. A file sglint
// cannot check fails the test.
func Findings(t T, dir string, opts checker.Options, rules ...*analyzer.Rule) []analyzer.Diagnostic {
	t.Helper()
	inputs, err := load(dir)
	if err != nil {
		t.Fatalf("analysistest: %v", err)
		return nil
	}
	opts.Rules, opts.Root = rules, dir
	res := checker.Run(inputs, opts)
	for _, p := range res.Problems {
		t.Fatalf("%s: sglint could not check the file: %s", filepath.Join(dir, p.Path), p.Message)
		return nil
	}
	return res.Diagnostics
}

// WithOptions is run options carrying opts as the rule's options (nil: the
// rule's defaults).
func WithOptions[O any](rule *analyzer.Rule, opts *O) checker.Options {
	if opts == nil {
		return checker.Options{}
	}
	return checker.Options{RuleOptions: map[string]any{rule.ID: opts}}
}

// WithSection is run options carrying opts as the settings of a shared
// section (nil: its defaults).
func WithSection[O any](sec *analyzer.Section, opts *O) checker.Options {
	if opts == nil {
		return checker.Options{}
	}
	return checker.Options{SectionOptions: map[string]any{sec.Key: opts}}
}

// DocBlock returns the first ```python block after the line heading (for
// example "## Example") of a rule's Markdown doc, so that tests can run
// the doc's examples.
func DocBlock(t T, doc, heading string) string {
	t.Helper()
	_, after, ok := strings.Cut(doc, "\n"+heading+"\n")
	if ok {
		_, after, ok = strings.Cut(after, "```python\n")
	}
	var block string
	if ok {
		block, _, ok = strings.Cut(after, "```")
	}
	if !ok {
		t.Fatalf("analysistest: the doc has no python block under %q", heading)
	}
	return block
}

// MethodFindings returns the findings of the rules on one file, path, made
// of class followed by method indented as the class's last method: for
// rules about methods, whose doc examples are a lone method that means
// something only in a class giving it its table and thread. class must end
// inside the class body. A file sglint cannot check fails the test.
func MethodFindings(t T, path, class, method string, rules ...*analyzer.Rule) []analyzer.Diagnostic {
	t.Helper()
	indented := "    " + strings.ReplaceAll(strings.TrimRight(method, "\n"), "\n", "\n    ") + "\n"
	res := checker.Run([]checker.Input{{Path: path, Src: []byte(class + indented), Report: true}},
		checker.Options{Rules: rules, Root: "."})
	for _, p := range res.Problems {
		t.Fatalf("%s: sglint could not check the file: %s", path, p.Message)
		return nil
	}
	return res.Diagnostics
}

// At returns the first finding of ds that starts on line of path, or nil.
func At(ds []analyzer.Diagnostic, path string, line int) *analyzer.Diagnostic {
	for i := range ds {
		if ds[i].Path == path && ds[i].Start.Line == line {
			return &ds[i]
		}
	}
	return nil
}
