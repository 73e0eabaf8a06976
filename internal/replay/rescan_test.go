package replay

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/internal/stamp"
	"github.com/sglint/sglint/internal/stamp/stamptest"
)

// rescanProject is a directory with two input files under pkg/ and a
// settings file, recorded as a run records them: the record's encoding and
// its input set's.
func rescanProject(t *testing.T) (dir string, record, inputs []byte) {
	dir = t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "pkg"), 0o755))
	for name, text := range map[string]string{"pkg/a.py": "x = 1\n", "pkg/b.py": "y = 2\n", "pyproject.toml": "[project]\n"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	time.Sleep(20 * time.Millisecond)
	rec := New(time.Now())
	for _, p := range []string{dir, filepath.Join(dir, "pkg"), filepath.Join(dir, "pyproject.toml"), filepath.Join(dir, "missing.toml")} {
		require.True(t, rec.AddNow(p))
	}
	ins := []Input{
		{Path: "proj/pkg/a.py", Abs: filepath.Join(dir, "pkg", "a.py"), Report: true, Walked: true},
		{Path: "b-by-name.py", Abs: filepath.Join(dir, "pkg", "b.py"), Named: true},
	}
	for _, in := range ins {
		fi, err := os.Stat(in.Abs)
		require.NoError(t, err)
		require.True(t, rec.Add(in.Abs, fi))
	}
	rec.EncodeStamps()
	return dir, rec.Encode(), rec.EncodeInputs(dir, ins)
}

// A record whose input files alone changed, in place, gives back the input
// set with today's stats, and the record of a run on it; any other change
// gives nothing, and the run walks.
func TestRescan(t *testing.T) {
	if !Supported() {
		t.Skip("runs are recorded on Linux only")
	}
	stamptest.TrustRecent(t)
	dir, record, inputs := rescanProject(t)
	a := filepath.Join(dir, "pkg", "a.py")

	rs, ok := Decode(record).Rescan(inputs)
	require.True(t, ok, "nothing changed")
	assert.Equal(t, dir, rs.Root)
	assert.Equal(t, []string{dir, filepath.Join(dir, "pkg")}, rs.Dirs)
	require.Len(t, rs.Inputs, 2)
	got := rs.Inputs[0]
	assert.Equal(t, Input{Path: "proj/pkg/a.py", Abs: a, Report: true, Walked: true}, Input{Path: got.Path, Abs: got.Abs, Report: got.Report, Named: got.Named, Walked: got.Walked})
	got = rs.Inputs[1]
	assert.Equal(t, Input{Path: "b-by-name.py", Abs: filepath.Join(dir, "pkg", "b.py"), Named: true}, Input{Path: got.Path, Abs: got.Abs, Report: got.Report, Named: got.Named, Walked: got.Walked})
	assert.True(t, rs.Has(dir, "pyproject.toml"))
	assert.False(t, rs.Has(dir, "missing.toml"))
	assert.False(t, rs.Has(filepath.Join(dir, "pkg"), "a.py"), "an input")
	assert.False(t, rs.Has(filepath.Join(dir, "pkg"), "pyproject.toml"))
	want, _, _, _ := stamp.Path(a)
	st, ok := stamp.Of(rs.Inputs[0].Info)
	require.True(t, ok)
	assert.Equal(t, want, st, "the input's stat is today's")
	assert.Equal(t, "a.py", rs.Inputs[0].Info.Name())

	// An input written in place: its new stamp goes into the next record,
	// which holds.
	time.Sleep(20 * time.Millisecond)
	require.NoError(t, os.WriteFile(a, []byte("x = 22\n"), 0o644))
	assert.False(t, Decode(record).Holds())
	rs, ok = Decode(record).Rescan(inputs)
	require.True(t, ok, "an input changed in place")
	next := rs.Record(time.Now())
	next.EncodeStamps()
	assert.True(t, Decode(next.Encode()).Holds(), "the next record has today's stamps")

	// Another run's input set is not taken.
	_, _, otherInputs := rescanProject(t)
	_, ok = Decode(record).Rescan(otherInputs)
	assert.False(t, ok, "another run's inputs")
	_, ok = Decode(record).Rescan(nil)
	assert.False(t, ok, "no input set")

	// Anything else changed: nothing is taken.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[project]\nname = \"x\"\n"), 0o644))
	_, ok = Decode(record).Rescan(inputs)
	assert.False(t, ok, "a settings file changed")
	dir, record, inputs = rescanProject(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pkg", "c.py"), nil, 0o644))
	_, ok = Decode(record).Rescan(inputs)
	assert.False(t, ok, "a file added")
}

// An input shown as the display prefix joined with its recorded path is
// encoded without its display path; others keep theirs.
func TestShownPrefix(t *testing.T) {
	assert.Equal(t, "python/sglang", shownPrefix("python/sglang/srt/x.py", "srt/x.py"))
	assert.Equal(t, "", shownPrefix("srt/x.py", "srt/x.py"))
	assert.Equal(t, "", shownPrefix("xsrt/x.py", "srt/x.py"), "not at a slash")
	assert.True(t, isJoin("python/srt/x.py", "python", "srt/x.py"))
	assert.True(t, isJoin("srt/x.py", "", "srt/x.py"))
	assert.False(t, isJoin("python/srt/y.py", "python", "srt/x.py"))
	assert.False(t, isJoin("pythonXsrt/x.py", "python", "srt/x.py"))
}
