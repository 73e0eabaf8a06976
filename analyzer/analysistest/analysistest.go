// Package analysistest checks rules against Python fixtures annotated with
// expectations, like golang.org/x/tools/go/analysis/analysistest.
//
// A comment `# want: SGL001 "regexp"` on a line expects one finding of
// SGL001 that starts on that line and whose message matches the regexp
// (optional; Go syntax, written as is between double quotes, with \" for a
// quote, or between back quotes). Several expectations may share a line:
// `# want: SGL001 "a" SGL004`. Every finding
// must be expected and every expectation met; mismatches fail the test,
// naming the file and line.
package analysistest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/syntax"
)

// T is the part of *testing.T the harness uses; the harness's own tests pass
// a fake to observe failures. After Fatalf, Run returns at once.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Run loads every .py file under dir as one project (paths relative to dir),
// runs the rules, applies suppressions as sglint does, and compares the
// findings with the `# want:` comments. It returns the result for further
// checks, or nil after a fatal error.
func Run(t T, dir string, rules ...*analyzer.Rule) *checker.Result {
	t.Helper()
	return RunWith(t, dir, checker.Options{}, rules...)
}

// RunWith is Run with run options, e.g. error records for the rules that
// read them (Options.Records). Rules and Root are set by the harness.
func RunWith(t T, dir string, opts checker.Options, rules ...*analyzer.Rule) *checker.Result {
	t.Helper()
	inputs, err := load(dir)
	if err != nil {
		t.Fatalf("analysistest: %v", err)
		return nil
	}
	// A fixture may carry wants for several rules (SGL001 and SGL010 on one
	// line); only the wants of the rules under test are checked.
	running := map[string]bool{}
	for _, r := range rules {
		running[r.ID] = true
	}
	wants := map[lineKey][]*want{}
	var order []*want
	for _, in := range inputs {
		ws, errs := parseWants(in)
		for _, e := range errs {
			t.Errorf("%s", e)
		}
		for _, w := range ws {
			if !running[w.rule] {
				continue
			}
			k := lineKey{in.Path, w.line}
			wants[k] = append(wants[k], w)
			order = append(order, w)
		}
	}

	opts.Rules, opts.Root = rules, dir
	res := checker.Run(inputs, opts)
	for _, p := range res.Problems {
		t.Errorf("%s: sglint could not check the file: %s", filepath.Join(dir, p.Path), p.Message)
	}
	for _, d := range res.Diagnostics {
		if !claim(wants[lineKey{d.Path, d.Start.Line}], &d) {
			t.Errorf("%s:%d:%d: unexpected %s finding: %s",
				filepath.Join(dir, d.Path), d.Start.Line, d.Start.Column, d.Rule.ID, d.Message)
		}
	}
	for _, w := range order {
		if !w.met {
			t.Errorf("%s:%d: missing %s finding%s", filepath.Join(dir, w.path), w.line, w.rule, w.describe())
		}
	}
	return res
}

type lineKey struct {
	path string
	line int
}

type want struct {
	path string
	line int
	rule string
	re   *regexp.Regexp // nil: any message
	met  bool
}

func (w *want) describe() string {
	if w.re == nil {
		return ""
	}
	return fmt.Sprintf(" matching %q", w.re.String())
}

// claim marks the first unmet expectation that d satisfies.
func claim(ws []*want, d *analyzer.Diagnostic) bool {
	for _, w := range ws {
		if !w.met && w.rule == d.Rule.ID && (w.re == nil || w.re.MatchString(d.Message)) {
			w.met = true
			return true
		}
	}
	return false
}

// load lists the .py files under dir in lexical order.
func load(dir string) ([]checker.Input, error) {
	var inputs []checker.Input
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Type().IsRegular() && strings.HasSuffix(path, ".py") {
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			inputs = append(inputs, checker.Input{Path: filepath.ToSlash(rel), Abs: path, Src: src, Report: true})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(inputs) == 0 {
		return nil, fmt.Errorf("no .py files under %s", dir)
	}
	return inputs, nil
}

var (
	wantComment = regexp.MustCompile(`#\s*want:(.*)$`)
	wantRule    = regexp.MustCompile(`^[A-Z]+[0-9]+`)
)

// parseWants finds the expectations in the comments of one file.
func parseWants(in checker.Input) ([]*want, []string) {
	p := syntax.NewParser()
	defer p.Close()
	tree, err := p.Parse(in.Src)
	if err != nil {
		return nil, []string{fmt.Sprintf("%s: %v", in.Abs, err)}
	}
	var wants []*want
	var errs []string
	for i := 0; i < tree.Len(); i++ {
		n := syntax.NodeID(i)
		if tree.Kind(n) != syntax.Comment {
			continue
		}
		m := wantComment.FindStringSubmatch(tree.Text(n))
		if m == nil {
			continue
		}
		line := tree.Start(n).Line
		ws, err := parseWantList(m[1])
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s:%d: bad want comment: %v", in.Abs, line, err))
			continue
		}
		for _, w := range ws {
			w.path, w.line = in.Path, line
		}
		wants = append(wants, ws...)
	}
	return wants, errs
}

// parseWantList parses `SGL001 "regexp" SGL002 ...`.
func parseWantList(s string) ([]*want, error) {
	var out []*want
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			break
		}
		id := wantRule.FindString(s)
		if id == "" {
			return nil, fmt.Errorf("expected a rule ID at %q", s)
		}
		w := &want{rule: id}
		s = strings.TrimLeft(s[len(id):], " \t")
		if s != "" && (s[0] == '"' || s[0] == '`') {
			expr, rest, err := cutQuoted(s)
			if err != nil {
				return nil, err
			}
			if w.re, err = regexp.Compile(expr); err != nil {
				return nil, err
			}
			s = rest
		}
		out = append(out, w)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no rule ID")
	}
	return out, nil
}

// cutQuoted reads a regexp quoted with " (where \" stands for a quote and
// every other backslash is kept for the regexp) or with ` (raw).
func cutQuoted(s string) (expr, rest string, err error) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == q:
			return b.String(), s[i+1:], nil
		case q == '"' && s[i] == '\\' && i+1 < len(s) && s[i+1] == '"':
			b.WriteByte('"')
			i++
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", fmt.Errorf("unterminated regexp at %s", s)
}
