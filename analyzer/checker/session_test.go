package checker_test

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/rules"
)

func (p *project) paths() []string {
	var out []string
	for _, in := range p.inputs() {
		out = append(out, in.Path)
	}
	return out
}

func (p *project) session(store *cache.Store, rs []*analyzer.Rule, recs *records.Set) *checker.Session {
	s := checker.NewSession(p.inputs(), checker.Options{Rules: rs, Jobs: 2, Root: p.dir, Cache: store, Records: recs})
	p.t.Cleanup(s.Close)
	return s
}

// ruleFixtures are the fixture projects of the real rules, the
// directories of testdata/rules by name, with the seed records the
// record-driven rule reads on them.
func ruleFixtures(t *testing.T) (src string, names []string, recs *records.Set) {
	t.Helper()
	recs, err := records.Load(filepath.Join("..", "..", "testdata", "records", "seed"))
	require.NoError(t, err)
	src = filepath.Join("..", "..", "testdata", "rules")
	dirs, err := os.ReadDir(src)
	require.NoError(t, err)
	for _, d := range dirs {
		if d.IsDir() {
			names = append(names, d.Name())
		}
	}
	require.NotEmpty(t, names)
	return src, names, recs
}

// A session checking every file gives what a full Run gives (a session
// loads every file, as Run does with Options.Full), on the real rules
// fixtures (with the seed records, for the record-driven rule).
func TestSessionAgreesWithRun(t *testing.T) {
	src, names, recs := ruleFixtures(t)
	all := rules.All()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			p := &project{t: t, dir: filepath.Join(src, name)}
			want := checker.Run(p.inputs(), checker.Options{Rules: all, Jobs: 2, Root: p.dir, Records: recs, Full: true})
			s := p.session(nil, all, recs)
			assert.Equal(t, outcome(want), outcome(s.Check(p.paths())))
			// Checked again, unchanged: the same (suppression usage starts
			// afresh at each check).
			assert.Equal(t, outcome(want), outcome(s.Check(p.paths())))
		})
	}
}

// Files replaced, added and removed in a session give what a run on the
// project as it is then gives, for the files asked about.
func TestSessionEdits(t *testing.T) {
	p := newProject(t, startFiles)
	s := p.session(nil, cacheRules, nil)
	step := func(name string, paths ...string) {
		t.Helper()
		var ins []checker.Input
		for _, in := range p.inputs() {
			in.Report = len(paths) == 0
			for _, q := range paths {
				in.Report = in.Report || in.Path == q
			}
			ins = append(ins, in)
		}
		want := checker.Run(ins, checker.Options{Rules: cacheRules, Jobs: 2, Root: p.dir, Full: true})
		if len(paths) == 0 {
			paths = p.paths()
		}
		assert.Equal(t, outcome(want), outcome(s.Check(paths)), name)
	}
	step("loaded")
	step("one file", "pkg/conn.py")

	// An unsaved buffer: the session gets the text, the disk does not.
	edited := "# edited\nclass Base:\n    pass\n"
	s.Set(checker.Input{Path: "pkg/base.py", Abs: filepath.Join(p.dir, "pkg/base.py"), Src: []byte(edited)})
	saved, err := os.ReadFile(filepath.Join(p.dir, "pkg/base.py"))
	require.NoError(t, err)
	p.write("pkg/base.py", edited)
	step("a base class edited", "pkg/conn.py")
	step("everything")

	// Back to the disk's text, read by the session.
	p.write("pkg/base.py", string(saved))
	s.Set(checker.Input{Path: "pkg/base.py", Abs: filepath.Join(p.dir, "pkg/base.py")})
	step("reverted")

	p.write("pkg/extra.py", "class Extra:\n    pass\n")
	s.Set(checker.Input{Path: "pkg/extra.py", Abs: filepath.Join(p.dir, "pkg/extra.py")})
	step("added")
	assert.True(t, s.Has("pkg/extra.py"))
	assert.Equal(t, []string{"other.py", "pkg/__init__.py", "pkg/base.py", "pkg/conn.py", "pkg/extra.py"}, s.Paths())

	require.NoError(t, os.Remove(filepath.Join(p.dir, "pkg/extra.py")))
	s.Remove("pkg/extra.py")
	s.Remove("pkg/never-there.py")
	step("removed")
	assert.False(t, s.Has("pkg/extra.py"))

	// A file that cannot be loaded: its problem comes with its check.
	s.Set(checker.Input{Path: "pkg/base.py", Abs: filepath.Join(p.dir, "pkg/base.py"), Src: []byte("x = 1\x00")})
	res := s.Check([]string{"pkg/base.py", "pkg/conn.py", "not/loaded.py"})
	require.Len(t, res.Problems, 1)
	assert.Contains(t, res.Problems[0].String(), "pkg/base.py: warning: binary file")
	assert.Equal(t, 1, res.Files)
	assert.Nil(t, s.Source("pkg/base.py"))
	assert.Equal(t, startFiles["pkg/conn.py"], string(s.Source("pkg/conn.py")))
}

// A session reads a cache a run wrote, and writes nothing to it, even
// through a store opened for writing.
func TestSessionReadsTheCacheAndWritesNothing(t *testing.T) {
	p := newProject(t, startFiles)
	dir := t.TempDir()
	p.run(openStore(t, dir, "engine"), cacheRules, nil)
	snapshot := func() map[string][32]byte {
		out := map[string][32]byte{}
		require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(path)
				out[path] = sha256.Sum256(b)
			}
			return err
		}))
		return out
	}
	before := snapshot()
	want := outcome(p.run(nil, cacheRules, nil))

	ro, err := cache.OpenReadOnly(dir, "engine")
	require.NoError(t, err)
	s := p.session(ro, cacheRules, nil)
	assert.Equal(t, 4, s.LoadStats().Cached)
	assert.Equal(t, 0, s.LoadStats().Parsed)
	assert.Equal(t, want, outcome(s.Check(p.paths())))

	// A store opened for writing, and files the cache does not know.
	// (Writes go on in the background: each store is waited for before
	// the files are looked at.)
	p.write("pkg/conn.py", "from .base import Base\n\nclass Conn2(Base):\n    pass\n")
	rw := openStore(t, dir, "engine")
	s = p.session(rw, cacheRules, nil)
	s.Set(checker.Input{Path: "other.py", Abs: filepath.Join(p.dir, "other.py"), Src: []byte("y = 2\n")})
	s.Check(p.paths())
	assert.Equal(t, 3, s.LoadStats().Cached)
	rw.Wait()
	assert.Equal(t, before, snapshot())

	// The same with the real rules, whose demands pre-scan every file:
	// the path that would write pre-scans.
	rw = openStore(t, dir, "engine")
	s = p.session(rw, rules.All(), nil)
	s.Check(p.paths())
	rw.Wait()
	assert.Equal(t, before, snapshot())
}

func TestOpenReadOnly(t *testing.T) {
	dir := t.TempDir()
	_, err := cache.OpenReadOnly(filepath.Join(dir, "missing"), "engine")
	assert.Error(t, err)
	_, err = os.Stat(filepath.Join(dir, "missing"))
	assert.True(t, os.IsNotExist(err), "nothing created")

	rw := openStore(t, dir, "engine")
	k := cache.NewKey([]byte("k"))
	require.NoError(t, rw.Put(k, []byte("v")))
	ro, err := cache.OpenReadOnly(dir, "engine")
	require.NoError(t, err)
	assert.True(t, ro.ReadOnly())
	assert.False(t, rw.ReadOnly())
	assert.Equal(t, []byte("v"), ro.Get(k))
	assert.ErrorIs(t, ro.Put(k, []byte("w")), cache.ErrReadOnly)
	assert.Equal(t, []byte("v"), rw.Get(k))

	// A run with a read-only store reads it and writes nothing.
	p := newProject(t, startFiles)
	res := p.run(ro, cacheRules, nil)
	assert.Equal(t, 4, res.Stats.Parsed)
	assert.Zero(t, res.Stats.CacheWrite)
	res = p.run(ro, cacheRules, nil)
	assert.Equal(t, 4, res.Stats.Parsed, "nothing was cached")
}
