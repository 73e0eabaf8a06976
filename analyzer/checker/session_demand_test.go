package checker_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/rules"
)

// findings is outcome without the count of raise sites, which depends on
// how many files a run loaded, not on what it reports.
func findings(res *checker.Result) string {
	return regexp.MustCompile(` sites \d+\n$`).ReplaceAllString(outcome(res), "\n")
}

// fullRun is what a full run of the project (every file loaded) reports
// on the file shown as target.
func (p *project) fullRun(target string, rs []*analyzer.Rule, recs *records.Set) *checker.Result {
	report := p.inputs()
	for i := range report {
		report[i].Report = report[i].Path == target
	}
	return checker.Run(report, checker.Options{Rules: rs, Jobs: 2, Root: p.dir, Records: recs, Full: true})
}

// A session with the real rules loads only what their demands select, and
// grows the selection when an edit asks for more: each fixture file is
// opened blank, then given its text, and the session's findings for it
// must be those of a full run. Blank, a KV file selects nothing of what it
// calls, so its text brings those files in.
func TestSessionGrowsTheSelection(t *testing.T) {
	src, names, recs := ruleFixtures(t)
	all := rules.All()
	grew, fewer := 0, 0
	for _, name := range names {
		p := &project{t: t, dir: filepath.Join(src, name)}
		ins := p.inputs()
		for k, target := range ins {
			t.Run(name+"/"+target.Path, func(t *testing.T) {
				opened := make([]checker.Input, len(ins))
				copy(opened, ins)
				opened[k].Src = []byte("pass\n")
				s := checker.NewSession(opened, checker.Options{Rules: all, Jobs: 2, Root: p.dir, Records: recs})
				defer s.Close()
				s.Check([]string{target.Path})
				before := s.Loaded()
				if before < len(ins) {
					fewer++
				}

				text, err := os.ReadFile(target.Abs)
				require.NoError(t, err)
				s.Set(checker.Input{Path: target.Path, Abs: target.Abs, Src: text})
				got := s.Check([]string{target.Path})
				if s.Loaded() > before {
					grew++
				}
				assert.Equal(t, findings(p.fullRun(target.Path, all, recs)), findings(got))
			})
		}
	}
	// Not a vacuous pass: sessions did load less than everything, and
	// edits did bring files in.
	assert.Positive(t, fewer)
	assert.Positive(t, grew)
}

// A file checked is loaded even when no demand selects it, and files
// changed on disk that nothing selects are only pre-scanned.
func TestSessionLoadsWhatIsChecked(t *testing.T) {
	p := &project{t: t, dir: filepath.Join("..", "..", "testdata", "rules", "scope")}
	ins := p.inputs()
	s := checker.NewSession(ins, checker.Options{Rules: rules.All(), Jobs: 2, Root: p.dir})
	defer s.Close()
	loaded := s.Loaded()
	require.Less(t, loaded, len(ins), "the look-alikes are not selected")
	var lookalike string
	for _, in := range ins {
		if s.Source(in.Path) == nil {
			lookalike = in.Path
			break
		}
	}
	require.NotEmpty(t, lookalike)
	s.Set(checker.Input{Path: lookalike, Abs: filepath.Join(p.dir, lookalike)}) // changed on disk
	assert.Nil(t, s.Source(lookalike), "pre-scanned, not loaded")
	res := s.Check([]string{lookalike})
	assert.Equal(t, 1, res.Files)
	assert.NotNil(t, s.Source(lookalike))
	assert.Equal(t, loaded+1, s.Loaded())
}

// The same through the disk, for files not open: another file of the
// fixture is blank when the session loads, then its text is written and
// the session told (as a file watcher does). The selection is made again
// over its new pre-scan (it may now seed the selection, or be called),
// and the findings of the file checked are those of a full run.
func TestSessionGrowsOnDiskChanges(t *testing.T) {
	src, names, recs := ruleFixtures(t)
	all := rules.All()
	grew, compared := 0, 0
	for _, name := range names {
		orig := &project{t: t, dir: filepath.Join(src, name)}
		files := map[string]string{}
		for _, in := range orig.inputs() {
			b, err := os.ReadFile(in.Abs)
			require.NoError(t, err)
			files[in.Path] = string(b)
		}
		for other := range files {
			p := newProject(t, files)
			p.write(other, "pass\n")
			ins := p.inputs()
			var paths []string
			for _, in := range ins {
				if in.Path != other {
					paths = append(paths, in.Path)
				}
			}
			s := checker.NewSession(ins, checker.Options{Rules: all, Jobs: 2, Root: p.dir, Records: recs})
			before := s.Loaded()
			p.write(other, files[other])
			s.Set(checker.Input{Path: other, Abs: filepath.Join(p.dir, filepath.FromSlash(other))})
			for _, target := range paths {
				if s.Source(target) == nil {
					continue // checking it would load it anyway
				}
				compared++
				got := s.Check([]string{target})
				assert.Equal(t, findings(p.fullRun(target, all, recs)), findings(got), "%s/%s after writing %s", name, target, other)
			}
			if s.Loaded() > before {
				grew++
			}
			s.Close()
		}
	}
	assert.Positive(t, grew)
	// Not a vacuous pass either: files the session had loaded were
	// compared with a full run.
	assert.Positive(t, compared)
}

// A change after a check is selected over as well: the selection is made
// again over the pre-scan of the file as it is now, not over the pre-scans
// of the last check. Here the second change brings a KV class into a file
// no selection asked for, and the session must load it.
func TestSessionSelectsAgainAfterEachChange(t *testing.T) {
	p := newProject(t, map[string]string{
		"disagg/base.py":  "class BaseKVManager:\n    pass\n",
		"disagg/conn.py":  "from disagg.base import BaseKVManager\n\nclass Conn(BaseKVManager):\n    def __init__(self):\n        self.table = {}\n        self.table[1] = 2\n\n    def send_one(self, k):\n        return self.table[k]\n",
		"disagg/new.py":   "pass\n",
		"models/llama.py": "def forward(x):\n    return x\n",
	})
	s := p.session(nil, rules.All(), nil)
	change := func(path, text string) {
		p.write(path, text)
		s.Set(checker.Input{Path: path, Abs: filepath.Join(p.dir, filepath.FromSlash(path))})
	}
	require.Nil(t, s.Source("disagg/new.py"), "no KV code in it yet")

	change("models/llama.py", "def forward(x):\n    return x + 1\n")
	s.Check([]string{"disagg/conn.py"})
	require.Nil(t, s.Source("disagg/new.py"), "still none")
	require.Nil(t, s.Source("models/llama.py"), "pre-scanned only")

	change("disagg/new.py", "from disagg.base import BaseKVManager\n\nclass Slow(BaseKVManager):\n    def send_slow(self, k):\n        return k\n")
	got := s.Check([]string{"disagg/conn.py"})
	assert.NotNil(t, s.Source("disagg/new.py"), "a KV class now: selected and loaded")
	assert.Equal(t, findings(p.fullRun("disagg/conn.py", rules.All(), nil)), findings(got))
	assert.Contains(t, findings(got), "disagg/conn.py:9")
}
