package checker_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules"
)

// project is a directory of Python files checked as one project.
type project struct {
	t   *testing.T
	dir string
}

func newProject(t *testing.T, files map[string]string) *project {
	p := &project{t: t, dir: t.TempDir()}
	for name, content := range files {
		p.write(name, content)
	}
	return p
}

func (p *project) write(name, content string) {
	path := filepath.Join(p.dir, filepath.FromSlash(name))
	require.NoError(p.t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(p.t, os.WriteFile(path, []byte(content), 0o644))
}

func (p *project) inputs() []checker.Input {
	var in []checker.Input
	_ = filepath.WalkDir(p.dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".py") {
			rel, _ := filepath.Rel(p.dir, path)
			in = append(in, checker.Input{Path: filepath.ToSlash(rel), Abs: path, Report: true})
		}
		return nil
	})
	slices.SortFunc(in, func(a, b checker.Input) int { return strings.Compare(a.Path, b.Path) })
	return in
}

// run checks the project with store (nil: no cache).
func (p *project) run(store *cache.Store, rs []*analyzer.Rule, opts map[string]any) *checker.Result {
	return checker.Run(p.inputs(), checker.Options{Rules: rs, Jobs: 2, Root: p.dir, Cache: store, RuleOptions: opts})
}

// outcome renders everything a run reports, for comparisons.
func outcome(res *checker.Result) string {
	var b strings.Builder
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "%s:%d:%d-%d:%d %s %s [%s] %v %q\n", d.Path, d.Start.Line, d.Start.Column, d.End.Line, d.End.Column,
			d.Rule.ID, d.Message, d.Function, d.Related, d.LineText)
	}
	for _, p := range res.Problems {
		fmt.Fprintf(&b, "problem %s\n", p)
	}
	for _, s := range res.Noqa {
		for _, d := range s.Directives {
			fmt.Fprintf(&b, "noqa %s:%d %q used=%v\n", s.Path, d.Start.Line, d.Text, d.UsedCodes())
		}
	}
	fmt.Fprintf(&b, "files %d suppressed %d sites %d\n", res.Files, res.Suppressed, len(res.RaiseSites))
	return b.String()
}

func openStore(t *testing.T, dir, engine string) *cache.Store {
	s, err := cache.Open(dir, engine)
	require.NoError(t, err)
	return s
}

// summaryRule reports, in every file, what the project index says about
// the classes of the other files and the tree of a base class: findings
// that depend on other files' summaries and trees.
var summaryRule = &analyzer.Rule{ID: "SGL906", Name: "summaries", Run: func(p *analyzer.Pass) error {
	var names []string
	for _, f := range p.Project.Files {
		if f == p.File || f.Summary == nil {
			continue
		}
		for _, c := range f.Summary.Classes {
			names = append(names, fmt.Sprintf("%s.%s(%s)@%d", f.Module, c.Name, strings.Join(c.Bases, ","), c.At.Line))
			t := f.Tree()
			p.Report(analyzer.Diagnostic{Start: syntax.Position{Line: 1, Column: 1}, End: syntax.Position{Line: 1, Column: 1},
				Message: fmt.Sprintf("sees %s, first line of its file %q", c.Name, t.Line(1)),
				Related: []analyzer.Related{analyzer.RelatedAt(f, c.At.Node, "defined here")}})
		}
	}
	slices.Sort(names)
	p.ReportNode(p.File.Tree().Root(), "project: "+strings.Join(names, " "))
	return nil
}}

// firstLineRule is file-local: it reports the file's first line.
var firstLineRule = &analyzer.Rule{ID: "SGL907", Name: "first-line", Local: true, Run: func(p *analyzer.Pass) error {
	p.ReportNode(p.File.Tree().Root(), "first line "+p.File.Tree().Line(1))
	return nil
}}

var cacheRules = []*analyzer.Rule{summaryRule, firstLineRule}

var startFiles = map[string]string{
	"pkg/__init__.py": "",
	"pkg/base.py":     "# base\nclass Base:\n    def send(self):\n        return self.descs[0]\n",
	"pkg/conn.py":     "from .base import Base\n\nclass Conn(Base):  # noqa: SGL906\n    pass\n",
	"other.py":        "x = 1  # noqa: SGL907\n",
}

// Every step of an edit session gives, from the cache, exactly what a run
// without a cache gives; and the cache does the least work it can.
func TestCacheInvalidation(t *testing.T) {
	p := newProject(t, startFiles)
	store := openStore(t, t.TempDir(), "engine")
	check := func(step string) *checker.Result {
		t.Helper()
		want := outcome(p.run(nil, cacheRules, nil))
		res := p.run(store, cacheRules, nil)
		require.Equal(t, want, outcome(res), step)
		return res
	}

	res := check("cold")
	assert.Equal(t, 4, res.Stats.Parsed)
	res = check("nothing changed")
	assert.Equal(t, 0, res.Stats.Parsed)
	assert.Equal(t, 4, res.Stats.Cached)
	assert.Equal(t, 4, res.Stats.ProjectCached)
	assert.Zero(t, res.Stats.Unpacked+res.Stats.Reparsed, "no tree is rebuilt")

	// A changed base class: its file is parsed again; the other files'
	// project findings are computed again (from their cached summaries and
	// the trees the rule reads), their file-local findings are reused.
	p.write("pkg/base.py", "# base, edited\nclass Base(object):\n    def send(self):\n        return self.descs[0]\n")
	res = check("base class changed")
	assert.Equal(t, 1, res.Stats.Parsed)
	assert.Equal(t, 3, res.Stats.Cached)
	assert.Equal(t, 0, res.Stats.ProjectCached)
	assert.Equal(t, 4, res.Stats.Unpacked, "the rule reads every tree: unpacked, three of them from the cache")
	assert.Equal(t, 0, res.Stats.Reparsed)
	assert.Equal(t, 0, res.Stats.Spliced, "the edit touches the module's only statement: the whole file is parsed")

	// A statement added in a method: the file is parsed only there, from
	// the snapshot of its last version in the cache.
	p.write("pkg/base.py", "# base, edited\nclass Base(object):\n    def send(self):\n        self.n = 1\n        return self.descs[0]\n")
	res = check("statement added")
	assert.Equal(t, 1, res.Stats.Parsed)
	assert.Equal(t, 1, res.Stats.Spliced)

	// A comment moves the class down a line: positions in other files'
	// findings follow.
	p.write("pkg/conn.py", "from .base import Base\n\n\nclass Conn(Base):  # noqa: SGL906\n    pass\n")
	check("class moved")

	p.write("pkg/extra.py", "class Extra:\n    pass\n")
	check("file added")
	require.NoError(t, os.Remove(filepath.Join(p.dir, "pkg", "extra.py")))
	check("file removed")
	check("nothing changed again")

	// Configuration: another rule selection, then rule options, then back.
	want := outcome(p.run(nil, []*analyzer.Rule{firstLineRule}, nil))
	assert.Equal(t, want, outcome(p.run(store, []*analyzer.Rule{firstLineRule}, nil)), "fewer rules")
	res = check("rules back")
	assert.Equal(t, 0, res.Stats.Parsed, "each configuration has its own findings entries")

	// Edits made while another configuration ran: each configuration's
	// findings entry is checked against the content, not trusted because
	// the file's model entry matches.
	local := []*analyzer.Rule{firstLineRule}
	orig, err := os.ReadFile(filepath.Join(p.dir, "pkg", "base.py"))
	require.NoError(t, err)
	p.write("pkg/base.py", "# edited\n"+string(orig))
	check("edited under the first configuration")
	p.write("pkg/base.py", string(orig))
	assert.Equal(t, outcome(p.run(nil, local, nil)), outcome(p.run(store, local, nil)), "reverted under another configuration")
	check("back to the first configuration")

	// The same files seen from another directory: display paths differ.
	sub := &project{t: t, dir: p.dir}
	in := sub.inputs()
	for i := range in {
		in[i].Path = "../x/" + in[i].Path
	}
	want = outcome(checker.Run(in, checker.Options{Rules: cacheRules, Jobs: 2, Root: p.dir}))
	got := checker.Run(in, checker.Options{Rules: cacheRules, Jobs: 2, Root: p.dir, Cache: store})
	assert.Equal(t, want, outcome(got), "other display paths")
	assert.Equal(t, 0, got.Stats.Cached, "findings carry display paths: they are computed again")
}

// Another sglint build (engine) does not read this one's entries.
func TestCacheEngineChange(t *testing.T) {
	p := newProject(t, startFiles)
	dir := t.TempDir()
	p.run(openStore(t, dir, "v1"), cacheRules, nil)
	res := p.run(openStore(t, dir, "v2"), cacheRules, nil)
	assert.Equal(t, 4, res.Stats.Parsed)
	res = p.run(openStore(t, dir, "v1"), cacheRules, nil)
	assert.Equal(t, 0, res.Stats.Parsed)
}

// Damaged, truncated, swapped or foreign entries are never trusted: the
// run gives what a run without a cache gives, and rewrites them.
func TestCacheCorruption(t *testing.T) {
	p := newProject(t, startFiles)
	dir := t.TempDir()
	store := openStore(t, dir, "engine")
	want := outcome(p.run(nil, cacheRules, nil))
	p.run(store, cacheRules, nil)

	var entries []string
	_ = filepath.WalkDir(store.Dir(), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Base(filepath.Dir(path)) != filepath.Base(store.Dir()) {
			entries = append(entries, path) // entries live in shard directories
		}
		return nil
	})
	// The models, summaries, trees and findings bundles, each in shards by
	// path: all four hold a record of every file, so the same shards; and
	// the project rules' findings, one record.
	require.NotEmpty(t, entries)
	require.Zero(t, (len(entries)-1)%4, "the four bundles in the same shards, and one more: %d entries", len(entries))
	contents := map[string][]byte{}
	for _, e := range entries {
		contents[e], _ = os.ReadFile(e)
	}
	damages := map[string]func(path string, b []byte) []byte{
		"flipped byte": func(_ string, b []byte) []byte { c := bytes.Clone(b); c[len(c)/2] ^= 0x10; return c },
		"truncated":    func(_ string, b []byte) []byte { return b[:len(b)*2/3] },
		"empty":        func(string, []byte) []byte { return nil },
		"header only":  func(_ string, b []byte) []byte { return b[:84] },
		"garbage":      func(_ string, b []byte) []byte { return bytes.Repeat([]byte{0xA5}, len(b)) },
		"another entry": func(path string, _ []byte) []byte {
			return contents[entries[(slices.Index(entries, path)+1)%len(entries)]]
		},
		"trailing bytes": func(_ string, b []byte) []byte { return append(bytes.Clone(b), 1, 2, 3) },
	}
	for name, damage := range damages {
		for _, e := range entries {
			require.NoError(t, os.WriteFile(e, damage(e, contents[e]), 0o644))
		}
		res := p.run(store, cacheRules, nil)
		assert.Equal(t, want, outcome(res), name)
		assert.Equal(t, 4, res.Stats.Parsed, name)
		res = p.run(store, cacheRules, nil)
		assert.Equal(t, want, outcome(res), name+", rewritten")
		assert.Equal(t, 0, res.Stats.Parsed, name+": the entries were rewritten")
	}
}

// Runs sharing a cache at the same time, while a file flips between two
// versions, each give the result of one of the versions.
func TestCacheConcurrentRuns(t *testing.T) {
	p := newProject(t, startFiles)
	versions := []string{
		"# base\nclass Base:\n    pass\n",
		"# base v2\nclass Base(dict):\n    x = 1\n",
	}
	var wants []string
	for _, v := range versions {
		p.write("pkg/base.py", v)
		wants = append(wants, outcome(p.run(nil, cacheRules, nil)))
	}
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	// Each run waits for the file to have changed since the last one, so
	// the file changes while the runs go on however the machine schedules
	// them (a loaded one once starved the swapper).
	var swaps atomic.Int64
	waitSwap := func(since int64) {
		for swaps.Load() == since {
			time.Sleep(50 * time.Microsecond)
		}
	}
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			store, err := cache.Open(dir, "engine")
			if err != nil {
				errs <- err.Error()
				return
			}
			for i := 0; i < 6; i++ {
				waitSwap(swaps.Load())
				got := outcome(p.run(store, cacheRules, nil))
				if !slices.Contains(wants, got) {
					errs <- got
				}
			}
		}()
	}
	// The file keeps changing for as long as the runs go on (a fixed number
	// of swaps could all be over before the first run starts).
	done := make(chan struct{})
	swapped := make(chan int)
	go func() {
		i := 0
		defer func() { swapped <- i }()
		for ; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			// Atomic replacement, so a run reads one version or the other.
			tmp := filepath.Join(p.dir, "pkg", ".base.tmp")
			_ = os.WriteFile(tmp, []byte(versions[i%2]), 0o644)
			_ = os.Rename(tmp, filepath.Join(p.dir, "pkg", "base.py"))
			swaps.Add(1)
			time.Sleep(200 * time.Microsecond)
		}
	}()
	wg.Wait()
	close(done)
	assert.Greater(t, <-swapped, 2, "the file changed while the runs went on")
	close(errs)
	for e := range errs {
		t.Errorf("a run gave neither version's result:\n%s", e)
	}
}

// The real rules on their fixtures: cold, warm, after an edit of each
// file, the cache gives what a run without one gives.
func TestCacheWithRealRules(t *testing.T) {
	var all []*analyzer.Rule
	for _, r := range rules.All() {
		if !r.DefaultOff {
			all = append(all, r)
		}
	}
	src := filepath.Join("..", "..", "testdata", "rules")
	dirs, err := os.ReadDir(src)
	require.NoError(t, err)
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			p := &project{t: t, dir: t.TempDir()}
			require.NoError(t, os.CopyFS(p.dir, os.DirFS(filepath.Join(src, d.Name()))))
			store := openStore(t, t.TempDir(), "engine")
			want := outcome(p.run(nil, all, nil))
			assert.Equal(t, want, outcome(p.run(store, all, nil)), "cold")
			res := p.run(store, all, nil)
			assert.Equal(t, want, outcome(res), "warm")
			assert.Equal(t, 0, res.Stats.Parsed, "warm")
			for _, in := range p.inputs() {
				b, err := os.ReadFile(in.Abs)
				require.NoError(t, err)
				// An edit that moves every line down.
				p.write(in.Path, "# edited\n"+string(b))
				assert.Equal(t, outcome(p.run(nil, all, nil)), outcome(p.run(store, all, nil)), "edited %s", in.Path)
				p.write(in.Path, string(b))
				assert.Equal(t, want, outcome(p.run(store, all, nil)), "restored %s", in.Path)
			}
		})
	}
}

// An edit rewrites the shards that hold the edited file's records, and the
// project rules' findings (all recomputed under the new project key) in
// one record, not every bundle whole.
func TestCacheEditRewritesFewShards(t *testing.T) {
	files := map[string]string{"pkg/__init__.py": ""}
	for i := range 40 {
		files[fmt.Sprintf("pkg/m%02d.py", i)] = fmt.Sprintf("def f%d():\n    return %d\n", i, i)
	}
	p := newProject(t, files)
	dir := t.TempDir()
	store := openStore(t, dir, "engine")
	p.run(store, cacheRules, nil)
	snapshot := func() map[string]string {
		out := map[string]string{}
		_ = filepath.WalkDir(store.Dir(), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(path)
				out[path] = string(b)
			}
			return nil
		})
		return out
	}
	before := snapshot()
	p.write("pkg/m07.py", "def f7():\n    return 700\n")
	res := p.run(store, cacheRules, nil)
	require.Equal(t, 1, res.Stats.Parsed)
	after := snapshot()
	changed := 0
	for path, b := range after {
		if before[path] != b {
			changed++
		}
	}
	// models, summaries, trees and the file-local findings: one shard
	// each; the project rules' findings: one record.
	assert.Equal(t, 5, changed, "of %d entries", len(after))
	assert.Less(t, changed, len(after)/2)
}
