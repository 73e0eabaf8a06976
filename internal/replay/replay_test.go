package replay

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/sglint/sglint/internal/binrec"
	"github.com/sglint/sglint/internal/stamp"
	"github.com/sglint/sglint/internal/stamp/stamptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRecordRoundTripAndChecks(t *testing.T) {
	if !Supported() {
		t.Skip("runs are recorded on Linux only")
	}
	stamptest.TrustRecent(t)

	dir := t.TempDir()
	file := filepath.Join(dir, "a.py")
	require.NoError(t, os.WriteFile(file, []byte("x = 1\n"), 0o644))
	time.Sleep(20 * time.Millisecond)

	rec := New(time.Now())
	rec.Exit, rec.Stdout, rec.Stderr = 1, []byte("out\n"), []byte("err\n")
	require.True(t, rec.AddNow(dir))
	require.True(t, rec.AddNow(file))
	require.True(t, rec.AddNow(filepath.Join(dir, "missing.toml")))
	rec.AddDir(dir)
	assert.Equal(t, 3, rec.Len(), "the directory once")
	data := rec.Encode()

	got := Decode(data)
	require.NotNil(t, got)
	assert.Equal(t, rec.Exit, got.Exit)
	assert.Equal(t, rec.Stdout, got.Stdout)
	assert.Equal(t, rec.Stderr, got.Stderr)
	assert.True(t, got.Holds())
	for n := range len(data) {
		assert.Nil(t, Decode(data[:n]), "truncated at %d", n)
	}
	assert.Nil(t, Decode(append(data, 0)), "trailing bytes")

	// Too close to the run to tell a later change apart.
	stamp.RacyWindow = time.Hour
	assert.False(t, Decode(data).Holds())
	stamp.RacyWindow = 0

	// A file that was missing appears.
	missing := filepath.Join(dir, "missing.toml")
	require.NoError(t, os.WriteFile(missing, nil, 0o644))
	assert.False(t, Decode(data).Holds())
	require.NoError(t, os.Remove(missing))
	assert.False(t, Decode(data).Holds(), "the directory's times changed")

	// Content changed (same size), a file added, a file removed. (The
	// directory's times changed above, so data holds no more: a record of
	// the file alone shows the file's own stamp is checked.)
	alone := New(time.Now())
	require.True(t, alone.AddNow(file))
	dataAlone := alone.Encode()
	assert.True(t, Decode(dataAlone).Holds())
	time.Sleep(20 * time.Millisecond)
	require.NoError(t, os.WriteFile(file, []byte("x = 2\n"), 0o644))
	assert.False(t, Decode(data).Holds())
	assert.False(t, Decode(dataAlone).Holds(), "the same size, rewritten")
	rec2 := New(time.Now().Add(time.Second))
	require.True(t, rec2.AddNow(dir))
	require.True(t, rec2.AddNow(file))
	data2 := rec2.Encode()
	assert.True(t, Decode(data2).Holds())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.py"), nil, 0o644))
	assert.False(t, Decode(data2).Holds(), "the directory changed")
	time.Sleep(20 * time.Millisecond)
	alone = New(time.Now())
	require.True(t, alone.AddNow(file))
	dataAlone = alone.Encode()
	assert.True(t, Decode(dataAlone).Holds())
	require.NoError(t, os.Remove(file))
	assert.False(t, Decode(data2).Holds())
	assert.False(t, Decode(dataAlone).Holds(), "the file removed")

	assert.False(t, New(time.Now()).Holds(), "an empty record holds nothing")

	// A directory whatever its times, a path still missing.
	rec3 := New(time.Now())
	rec3.AddDir(dir)
	require.True(t, rec3.AddNow(filepath.Join(dir, "nope")))
	data3 := rec3.Encode()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.py"), nil, 0o644))
	assert.True(t, Decode(data3).Holds())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nope"), nil, 0o644))
	assert.False(t, Decode(data3).Holds())
}

// The record lists the paths changed last first, so that an edit run's
// check meets the file just edited again before the others.
func TestRecordOrdersRecentFirst(t *testing.T) {
	rec := New(time.Now())
	for i, name := range []string{"b.py", "a.py", "c.py", "d.py"} {
		rec.AddStamp(name, Stamp{Size: 1, Mtime: int64(10 * (i % 3)), Ctime: 1})
	}
	rec.AddDir(".git")
	got := Decode(rec.Encode())
	require.NotNil(t, got)
	var order []string
	for _, e := range decodeAll(t, got) {
		order = append(order, e.path)
	}
	assert.Equal(t, []string{"c.py", "a.py", "b.py", "d.py", ".git"}, order,
		"by change time, newest first, then by path")
}

// decodeAll reads the entries of a decoded record.
func decodeAll(t *testing.T, r *Record) []entry {
	d := binrec.Reader{S: r.stamps}
	var es []entry
	for range r.n {
		e, ok := decodeEntry(&d)
		require.True(t, ok)
		if !filepath.IsAbs(e.path) {
			e.path = filepath.Join(r.base, e.path) // stored relative to the base
		}
		es = append(es, e)
	}
	require.True(t, d.Done())
	return es
}

// pyFiles writes n Python files, and returns them and a function that
// records them as a run does and encodes the record.
func pyFiles(t *testing.T, n int) (files []string, record func() []byte) {
	dir := t.TempDir()
	for i := range n {
		f := filepath.Join(dir, fmt.Sprintf("m%03d.py", i))
		require.NoError(t, os.WriteFile(f, []byte("x = 1\n"), 0o644))
		files = append(files, f)
	}
	time.Sleep(20 * time.Millisecond)
	return files, func() []byte {
		rec := New(time.Now())
		for _, f := range files {
			require.True(t, rec.AddNow(f))
		}
		return rec.Encode()
	}
}

// Holds reads the first entries one by one and the rest with workers: a
// change is seen wherever its entry falls, and the output and stamps
// encoded ahead (EncodeStamps) give the same record as Encode alone.
func TestHoldsSeesAChangeAnywhere(t *testing.T) {
	if !Supported() {
		t.Skip("runs are recorded on Linux only")
	}
	stamptest.TrustRecent(t)
	files, record := pyFiles(t, 3*firstAlone)
	rec := New(time.Now())
	for _, f := range files {
		require.True(t, rec.AddNow(f))
	}
	ahead := New(time.Now())
	*ahead = *rec
	ahead.EncodeStamps()
	ahead.Exit, ahead.Stdout = 1, []byte("out\n")
	rec.Exit, rec.Stdout = 1, []byte("out\n")
	require.Equal(t, rec.Encode(), ahead.Encode())
	for _, at := range []int{0, firstAlone - 1, firstAlone, len(files) - 1} {
		data := record()
		got := Decode(data)
		require.NotNil(t, got)
		require.True(t, got.Holds())
		f := decodeAll(t, got)[at].path
		require.NoError(t, os.Chmod(f, 0o600), "the change time moves")
		assert.False(t, Decode(data).Holds(), "entry %d changed", at)
		time.Sleep(20 * time.Millisecond)
		data = record()
		require.True(t, Decode(data).Holds())
		f = decodeAll(t, Decode(data))[at].path
		require.NoError(t, os.Remove(f))
		assert.False(t, Decode(data).Holds(), "entry %d removed", at)
		require.NoError(t, os.WriteFile(f, []byte("x = 1\n"), 0o644))
		time.Sleep(20 * time.Millisecond)
	}
}

// The entries after the first few are checked in chunks by as many workers
// as there are CPUs: a change is seen in any chunk, whatever the number of
// workers.
func TestHoldsSeesAChangeInEveryChunk(t *testing.T) {
	if !Supported() {
		t.Skip("runs are recorded on Linux only")
	}
	stamptest.TrustRecent(t)
	files, record := pyFiles(t, firstAlone+2*chunkSize+5)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3, 16} {
		runtime.GOMAXPROCS(procs)
		for _, at := range []int{firstAlone, firstAlone + chunkSize - 1, firstAlone + chunkSize,
			firstAlone + 2*chunkSize, len(files) - 1} {
			data := record()
			require.True(t, Decode(data).Holds(), "%d workers", procs)
			f := decodeAll(t, Decode(data))[at].path
			require.NoError(t, os.Chmod(f, 0o600), "the change time moves")
			assert.False(t, Decode(data).Holds(), "%d workers, entry %d changed", procs, at)
			time.Sleep(12 * time.Millisecond)
		}
	}
}

// Paths under the deepest directory above every Python file are recorded
// relative to it, and read from it; the others stay absolute.
func TestRecordPathsUnderItsBase(t *testing.T) {
	if !Supported() {
		t.Skip("runs are recorded on Linux only")
	}
	stamptest.TrustRecent(t)
	dir := t.TempDir()
	pkg := filepath.Join(dir, "python", "pkg")
	require.NoError(t, os.MkdirAll(filepath.Join(pkg, "sub"), 0o755))
	files := []string{filepath.Join(pkg, "a.py"), filepath.Join(pkg, "sub", "b.py")}
	for _, f := range files {
		require.NoError(t, os.WriteFile(f, []byte("x = 1\n"), 0o644))
	}
	config := filepath.Join(dir, "pyproject.toml")
	require.NoError(t, os.WriteFile(config, nil, 0o644))
	time.Sleep(20 * time.Millisecond)
	record := func() []byte {
		rec := New(time.Now())
		for _, p := range append([]string{pkg, filepath.Join(pkg, "sub"), config, filepath.Join(dir, "missing.toml"), "/sglint-test-missing.py"}, files...) {
			require.True(t, rec.AddNow(p))
		}
		return rec.Encode()
	}
	data := record()
	got := Decode(data)
	require.NotNil(t, got)
	assert.Equal(t, pkg, got.base)
	var stored []string
	d := binrec.Reader{S: got.stamps}
	for range got.n {
		e, ok := decodeEntry(&d)
		require.True(t, ok)
		stored = append(stored, e.path)
	}
	assert.ElementsMatch(t, []string{".", "sub", "a.py", "sub/b.py", config, filepath.Join(dir, "missing.toml"), "/sglint-test-missing.py"}, stored)
	assert.True(t, got.Holds())

	// The base moved away, and a copy put in its place: nothing holds.
	require.NoError(t, os.Rename(pkg, pkg+".old"))
	assert.False(t, Decode(data).Holds(), "the base is gone")
	require.NoError(t, os.MkdirAll(filepath.Join(pkg, "sub"), 0o755))
	for _, f := range files {
		require.NoError(t, os.WriteFile(f, []byte("x = 1\n"), 0o644))
	}
	assert.False(t, Decode(data).Holds(), "another directory under the base's name")
	time.Sleep(20 * time.Millisecond)
	assert.True(t, Decode(record()).Holds())
}

func TestBaseOf(t *testing.T) {
	es := func(paths ...string) []entry {
		var out []entry
		for _, p := range paths {
			out = append(out, entry{path: p})
		}
		return out
	}
	assert.Equal(t, "/a/b", baseOf(es("/a/b/x.py", "/a/b/c/y.py", "/a/pyproject.toml", "/z")))
	assert.Equal(t, "/a/b", baseOf(append(es("/a/b/x.py"), entry{path: "/setup.py", kind: mustBeMissing})),
		"a name looked up and missing")
	assert.Equal(t, "/a", baseOf(es("/a/b/x.py", "/a/bc/y.py")), "a directory, not a string prefix")
	assert.Equal(t, "", baseOf(es("/x.py", "/a/y.py")), "the root: paths stay absolute")
	assert.Equal(t, "", baseOf(es("/a/pyproject.toml", "rel/x.py")), "no absolute Python file")
	assert.Equal(t, "sub/b.py", relativeTo("/a", "/a/sub/b.py"))
	assert.Equal(t, ".", relativeTo("/a", "/a"))
	assert.Equal(t, "/ab/c.py", relativeTo("/a", "/ab/c.py"))
	assert.Equal(t, "/a/c.py", relativeTo("", "/a/c.py"))
}
