package checker_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
)

// moduleRule reports once per file, at the module node.
var moduleRule = &analyzer.Rule{ID: "SGL901", Name: "module", Run: func(p *analyzer.Pass) error {
	p.ReportNode(p.File.Tree().Root(), "seen")
	return nil
}}

// boomRule panics on files named boom*.py, directly or inside a shared
// analysis, and reports on the others.
var boomAnalysis = &analyzer.Analysis{Name: "boom", Run: func(p *analyzer.Pass) (any, error) {
	if strings.HasPrefix(p.File.Path, "boom_analysis") {
		var m map[string]int
		m["x"]++ // a real runtime panic: nil map write
	}
	return nil, nil
}}

var boomRule = &analyzer.Rule{ID: "SGL900", Name: "boom", Requires: []*analyzer.Analysis{boomAnalysis},
	Run: func(p *analyzer.Pass) error {
		if _, err := p.ResultOf(boomAnalysis); err != nil {
			return err
		}
		p.ReportNode(p.File.Tree().Root(), "boom rule ran")
		if strings.HasPrefix(p.File.Path, "boom_rule") {
			panic("injected failure")
		}
		return nil
	}}

func src(path, code string) checker.Input {
	return checker.Input{Path: path, Src: []byte(code), Report: true}
}

// A panic in one rule on one file becomes an internal-error problem naming
// the file and the rule; that rule's findings on that file are dropped, and
// every other rule and file is still checked.
func TestPanicIsContained(t *testing.T) {
	inputs := []checker.Input{
		src("a.py", "x = 1\n"),
		src("boom_rule.py", "y = 2\n"),
		src("boom_analysis.py", "z = 3\n"),
		src("b.py", "w = 4\n"),
	}
	for _, jobs := range []int{1, 2, 4} {
		res := checker.Run(inputs, checker.Options{Rules: []*analyzer.Rule{boomRule, moduleRule}, Jobs: jobs})

		require.Len(t, res.Problems, 2)
		for i, want := range []struct{ path, msg string }{
			{"boom_rule.py", "rule SGL900 panicked: injected failure"},
			{"boom_analysis.py", "rule SGL900 panicked: assignment to entry in nil map"},
		} {
			p := res.Problems[i]
			assert.True(t, p.Internal)
			assert.Equal(t, want.path, p.Path)
			assert.True(t, strings.HasPrefix(p.Message, want.msg), p.Message)
			assert.Contains(t, p.Message, "goroutine", "the stack is kept for the bug report")
			assert.True(t, strings.HasPrefix(p.String(), want.path+": internal error: "+want.msg))
		}

		var got []string
		for _, d := range res.Diagnostics {
			got = append(got, d.Path+" "+d.Rule.ID+" "+d.Message)
		}
		assert.Equal(t, []string{
			"a.py SGL900 boom rule ran",
			"a.py SGL901 seen",
			"b.py SGL900 boom rule ran",
			"b.py SGL901 seen",
			"boom_analysis.py SGL901 seen",
			"boom_rule.py SGL901 seen", // the panicking rule's own report is dropped
		}, got, "jobs=%d", jobs)
		assert.Equal(t, 4, res.Files)
	}
}

// Inputs that are not Python source are skipped with a warning or refused
// with a problem; neither panics, and the other inputs are checked.
func TestLoadRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	bigPath := write("big.py", nil)
	require.NoError(t, os.Truncate(bigPath, checker.DefaultMaxFileSize+1)) // sparse: no real 32 MiB write
	require.NoError(t, os.Mkdir(filepath.Join(dir, "x.py"), 0o755))
	onDisk := func(name, abs string) checker.Input { return checker.Input{Path: name, Abs: abs, Report: true} }

	inputs := []checker.Input{
		onDisk("nul.py", write("nul.py", []byte("x = 1\nimport os\x00\x01\x02\n"))),
		onDisk("big.py", bigPath),
		onDisk("x.py", filepath.Join(dir, "x.py")),
		onDisk("gone.py", filepath.Join(dir, "gone.py")),
		src("stdin.py", "\x00"),
		src("ok.py", "x = 1\n"),
	}
	res := checker.Run(inputs, checker.Options{Rules: []*analyzer.Rule{moduleRule}})
	var got []string
	for _, p := range res.Problems {
		got = append(got, p.String())
	}
	assert.Equal(t, []string{
		"nul.py: warning: binary file (NUL byte at 2:10), skipped",
		"big.py: warning: file too large (33554433 bytes, over the 32 MiB limit), skipped",
		"x.py: cannot read: is a directory",
		"gone.py: cannot read: no such file or directory",
		"stdin.py: warning: binary file (NUL byte at 1:1), skipped",
	}, got)
	require.Len(t, res.Diagnostics, 1)
	assert.Equal(t, "ok.py", res.Diagnostics[0].Path)
	assert.Equal(t, 1, res.Files)
}

func TestMaxFileSize(t *testing.T) {
	opts := checker.Options{Rules: []*analyzer.Rule{moduleRule}, MaxFileSize: 10}
	res := checker.Run([]checker.Input{src("small.py", "x = 1\n"), src("large.py", "x = 123456\n")}, opts)
	require.Len(t, res.Problems, 1)
	assert.Equal(t, "large.py: warning: file too large (11 bytes, over the 10 bytes limit), skipped", res.Problems[0].String())

	// A stream is read only up to the limit: its size stays unknown.
	if _, err := os.Stat("/dev/fd"); err != nil {
		t.Skip("no /dev/fd to name a pipe by")
	}
	r, w, err := os.Pipe()
	require.NoError(t, err)
	go func() { w.Write([]byte(strings.Repeat("#", 1000))); w.Close() }()
	defer r.Close()
	res = checker.Run([]checker.Input{{Path: "pipe.py", Abs: "/dev/fd/" + strconv.Itoa(int(r.Fd())), Report: true}}, opts)
	require.Len(t, res.Problems, 1)
	assert.Equal(t, "pipe.py: warning: file too large (over the 10 bytes limit), skipped", res.Problems[0].String())
}

// identRule reports every identifier, to check positions.
var identRule = &analyzer.Rule{ID: "SGL902", Name: "ident", Run: func(p *analyzer.Pass) error {
	t := p.File.Tree()
	for i := range t.Len() {
		if n := syntax.NodeID(i); t.Kind(n) == syntax.Identifier {
			p.ReportNode(n, t.Text(n))
		}
	}
	return nil
}}

// Python reads a lone CR as a line end; so do positions.
func TestLoneCarriageReturn(t *testing.T) {
	res := checker.Run([]checker.Input{src("cr.py", "a = 1\rb = 2\r\nc = 3\r\r\nd\r")},
		checker.Options{Rules: []*analyzer.Rule{identRule}})
	require.Empty(t, res.Problems)
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%d:%d %s", d.Start.Line, d.Start.Column, d.Message))
	}
	assert.Equal(t, []string{"1:1 a", "2:1 b", "3:1 c", "5:1 d"}, got)
}

// modelRule reports, at every call site, where the project model resolves
// it, and at each class the attributes its bases declare Optional: enough
// to see the index built over files the rule does not run on.
var modelRule = &analyzer.Rule{ID: "SGL902", Name: "model", Run: func(p *analyzer.Pass) error {
	ix := p.Project.Index
	if p.File.Model < 0 {
		return fmt.Errorf("%s not in the index", p.File.Path)
	}
	s := ix.Summary(p.File.Model)
	for ci, c := range s.Calls {
		for _, cal := range ix.Callees(pymodel.CallSite{File: p.File.Model, Call: int32(ci)}) {
			if cal.Func.Valid() {
				p.ReportNode(c.At.Node, fmt.Sprintf("%s -> %s", c.Callee(), ix.FuncName(cal.Func)))
			}
		}
	}
	for ci, c := range s.Classes {
		cr := pymodel.ClassRef{File: p.File.Model, Class: int32(ci)}
		for _, name := range []string{"mem_kind", "peers", "descs"} {
			if a := ix.Attr(cr, name); len(a.Assigns) > 0 {
				p.ReportNode(c.NameAt.Node, fmt.Sprintf("%s.%s optional=%v sites=%d", ix.ClassName(cr), name, a.Optional, len(a.Assigns)))
			}
		}
	}
	for _, e := range ix.Entries() {
		if e.Site.File == p.File.Model {
			p.ReportNode(ix.Call(e.Site).At.Node, "thread entry "+ix.FuncName(e.Func))
		}
	}
	return nil
}}

// kvprojInputs are the Python files of testdata/model/kvproj, reported on
// when report says so.
func kvprojInputs(t *testing.T, report func(rel string) bool) []checker.Input {
	t.Helper()
	root := filepath.Join("..", "..", "testdata", "model", "kvproj")
	var inputs []checker.Input
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			abs, _ := filepath.Abs(p)
			rel, _ := filepath.Rel(root, p)
			inputs = append(inputs, checker.Input{Path: filepath.ToSlash(rel), Abs: abs, Report: report(rel)})
		}
		return err
	}))
	require.NotEmpty(t, inputs)
	return inputs
}

// The engine summarises every file in phase 1 and links them once: module
// names come from the project root (found from pyproject.toml), relative
// imports and bases resolve across files, and the outcome is the same for
// any number of workers.
func TestProjectModel(t *testing.T) {
	// Only the mori file is reported on; the rest is context.
	inputs := kvprojInputs(t, func(rel string) bool { return strings.Contains(rel, "mori") })
	var first []string
	for _, jobs := range []int{1, 2, 3} {
		res := checker.Run(inputs, checker.Options{Rules: []*analyzer.Rule{modelRule}, Jobs: jobs})
		require.Empty(t, res.Problems)
		var got []string
		for _, d := range res.Diagnostics {
			got = append(got, fmt.Sprintf("%s:%d: %s", d.Path, d.Start.Line, d.Message))
		}
		if first == nil {
			first = got
			assert.Equal(t, []string{
				"pkg/mori/conn.py:6: pkg.mori.conn.Manager.descs optional=false sites=1",
				"pkg/mori/conn.py:6: pkg.mori.conn.Manager.peers optional=false sites=1",
				"pkg/mori/conn.py:8: super().__init__ -> pkg.common.conn.BaseManager.__init__",
				"pkg/mori/conn.py:12: thread entry pkg.mori.conn.Manager.transfer_worker",
				"pkg/mori/conn.py:16: self.send_one -> pkg.mori.conn.Manager.send_one",
				"pkg/mori/conn.py:17: self.send_checked -> pkg.mori.conn.Manager.send_checked",
				"pkg/mori/conn.py:24: self._require_descs -> pkg.mori.conn.Manager._require_descs",
			}, got)
			continue
		}
		assert.Equal(t, first, got, "jobs=%d", jobs)
	}
}

// flowRule reports the index reads of self attributes, on every path from
// a thread entry, with whether a non-empty fact holds there (counting
// checks in callees and in callers).
var flowRule = &analyzer.Rule{ID: "SGL903", Name: "flow", Run: func(p *analyzer.Pass) error {
	ix, fl := p.Project.Index, p.Project.Flow
	var starts []pymodel.Start
	for _, e := range ix.Entries() {
		starts = append(starts, e.Start())
	}
	reach := ix.Reachable(starts, pymodel.ReachOptions{})
	guards := fl.Guards(reach)
	for _, fn := range reach.Funcs() {
		if fn.File != p.File.Model {
			continue
		}
		for _, g := range fl.UseGuards(fn, guards.Result(fn)) {
			if u := ix.Use(g.Use); u.Op == pymodel.ReadIndex {
				p.ReportNode(u.At.Node, fmt.Sprintf("%s[...] in %s non-empty=%v chain=%d", g.Path, ix.Func(fn).QualName, g.NonEmpty, len(reach.Chain(fn))))
			}
		}
	}
	return nil
}}

func TestProjectFlow(t *testing.T) {
	inputs := kvprojInputs(t, func(string) bool { return true })
	res := checker.Run(inputs, checker.Options{Rules: []*analyzer.Rule{flowRule}, Jobs: 2})
	require.Empty(t, res.Problems)
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%s:%d: %s", d.Path, d.Start.Line, d.Message))
	}
	assert.Equal(t, []string{
		"pkg/mori/conn.py:20: self.peers[...] in Manager.send_one non-empty=false chain=2",
		"pkg/mori/conn.py:21: self.descs[...] in Manager.send_one non-empty=false chain=2",
		// The helper's raise guards the read after the call.
		"pkg/mori/conn.py:25: self.descs[...] in Manager.send_checked non-empty=true chain=2",
	}, got)
}
