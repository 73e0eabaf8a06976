package checker_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/rules"
)

// findings is outcome without the count of raise sites, which depends on
// how many files a run loaded, not on what it reports.
func findings(res *checker.Result) string {
	return regexp.MustCompile(` sites \d+\n$`).ReplaceAllString(outcome(res), "\n")
}

// A session with the real rules loads only what their demands select, and
// grows the selection when an edit asks for more: each fixture file is
// opened blank, then given its text, and the session's findings for it
// must be those of a full run. Blank, a KV file selects nothing of what it
// calls, so its text brings those files in.
func TestSessionGrowsTheSelection(t *testing.T) {
	recs, err := records.Load(filepath.Join("..", "..", "testdata", "records", "seed"))
	require.NoError(t, err)
	all := rules.All()
	src := filepath.Join("..", "..", "testdata", "rules")
	dirs, err := os.ReadDir(src)
	require.NoError(t, err)
	grew, fewer := 0, 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		p := &project{t: t, dir: filepath.Join(src, d.Name())}
		ins := p.inputs()
		for k, target := range ins {
			t.Run(d.Name()+"/"+target.Path, func(t *testing.T) {
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
				report := make([]checker.Input, len(ins))
				for i, in := range ins {
					in.Report = i == k
					report[i] = in
				}
				want := checker.Run(report, checker.Options{Rules: all, Jobs: 2, Root: p.dir, Records: recs, Full: true})
				assert.Equal(t, findings(want), findings(got))
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
	recs, err := records.Load(filepath.Join("..", "..", "testdata", "records", "seed"))
	require.NoError(t, err)
	all := rules.All()
	src := filepath.Join("..", "..", "testdata", "rules")
	dirs, err := os.ReadDir(src)
	require.NoError(t, err)
	grew := 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		orig := &project{t: t, dir: filepath.Join(src, d.Name())}
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
				got := s.Check([]string{target})
				report := p.inputs()
				for i := range report {
					report[i].Report = report[i].Path == target
				}
				want := checker.Run(report, checker.Options{Rules: all, Jobs: 2, Root: p.dir, Records: recs, Full: true})
				assert.Equal(t, findings(want), findings(got), "%s/%s after writing %s", d.Name(), target, other)
			}
			if s.Loaded() > before {
				grew++
			}
			s.Close()
		}
	}
	assert.Positive(t, grew)
}
