package discover

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/sglint/sglint/internal/stamp"
	"github.com/sglint/sglint/internal/stamp/stamptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListingsReuseUnchangedDirectories(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("listings are kept on Linux only")
	}
	stamptest.TrustRecent(t)

	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	write("a.py", "x = 1\n")
	write("notes.txt", "not python\n")
	write("pkg/b.py", "y = 2\n")
	write("pkg/sub/c.py", "z = 3\n")
	write("build/gen.py", "excluded by default\n")
	time.Sleep(20 * time.Millisecond) // the directories are older than the first walk

	// walk runs Find with the listings recorded by the walk before (nil:
	// none), checks it finds what a walk without them finds, and returns
	// the new record with the counts of reused and read listings.
	var data []byte
	walk := func(paths ...string) (files []File, reused, read int, changed bool) {
		t.Helper()
		l := DecodeListings(data)
		opts := DefaultOptions()
		opts.Cwd = root
		opts.Listings = l
		files, probs := Find(paths, opts)
		require.Empty(t, probs)
		plainOpts := DefaultOptions()
		plainOpts.Cwd = root
		plain, plainProbs := Find(paths, plainOpts)
		require.Empty(t, plainProbs)
		require.Equal(t, paths2(plain), paths2(files))
		for i := range files {
			assert.Equal(t, plain[i].Info.Size(), files[i].Info.Size(), files[i].Path)
			assert.Equal(t, keyOf(plain[i].Abs, plain[i].Info), keyOf(files[i].Abs, files[i].Info))
		}
		reused, read = l.counts()
		changed = l.Changed()
		data = l.Encode()
		return files, reused, read, changed
	}

	files, reused, read, changed := walk(".")
	assert.Equal(t, []string{"a.py", "pkg/b.py", "pkg/sub/c.py"}, paths2(files))
	assert.Equal(t, 0, reused)
	assert.Equal(t, 3, read) // root, pkg, pkg/sub: build is excluded, never listed
	assert.True(t, changed)

	time.Sleep(20 * time.Millisecond)
	_, reused, read, changed = walk(".")
	assert.Equal(t, 3, reused)
	assert.Equal(t, 0, read)
	assert.False(t, changed, "nothing new to record")

	// An edit changes a file, not its directory: the listing is reused and
	// the file's stat is fresh.
	write("a.py", "x = 1\nx = 2\n")
	files, reused, read, _ = walk(".")
	assert.Equal(t, 3, reused)
	assert.Equal(t, 0, read)
	assert.Equal(t, int64(len("x = 1\nx = 2\n")), files[0].Info.Size())

	// A new file changes its directory's times: that one is read again.
	write("pkg/new.py", "w = 4\n")
	files, reused, read, changed = walk(".")
	assert.Equal(t, []string{"a.py", "pkg/b.py", "pkg/new.py", "pkg/sub/c.py"}, paths2(files))
	assert.Equal(t, 2, reused)
	assert.Equal(t, 1, read)
	assert.True(t, changed)

	// A removed directory is dropped from the record.
	time.Sleep(20 * time.Millisecond)
	require.NoError(t, os.RemoveAll(filepath.Join(root, "pkg", "sub")))
	files, _, _, _ = walk(".")
	assert.Equal(t, []string{"a.py", "pkg/b.py", "pkg/new.py"}, paths2(files))
	saved, _, ok := decodeListings(data)
	require.True(t, ok)
	assert.NotContains(t, saved, filepath.Join(root, "pkg", "sub"))
	assert.Len(t, saved, 2)

	// A walk of part of the tree keeps the record of the rest.
	time.Sleep(20 * time.Millisecond)
	_, reused, read, _ = walk("pkg")
	assert.Equal(t, 1, reused)
	assert.Equal(t, 0, read)
	saved, _, ok = decodeListings(data)
	require.True(t, ok)
	assert.Contains(t, saved, root)

	// Listings recorded too close to a change are not trusted.
	stamp.RacyWindow = time.Hour
	_, reused, read, _ = walk(".")
	assert.Equal(t, 0, reused)
	assert.Equal(t, 2, read)
}

func TestListingsRecordIsCheckedWhole(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("garbage"), []byte(listingsMagic), []byte(listingsMagic + "\x01\x02")} {
		l := DecodeListings(data)
		assert.Empty(t, l.saved)
	}
	l := DecodeListings(nil)
	l.used["/d"] = savedDir{stamp: DirStamp{Mtime: 1, Ctime: 2, Ino: 3, Dev: 4}, entries: []entry{{name: "a.py"}, {name: "pkg", typ: os.ModeDir}}}
	l.now = 99
	good := l.Encode()
	saved, written, ok := decodeListings(good)
	require.True(t, ok)
	assert.Equal(t, int64(99), written)
	assert.Equal(t, l.used, saved)
	// Every truncation is refused, never half read.
	for n := len(listingsMagic); n < len(good); n++ {
		_, _, ok := decodeListings(good[:n])
		assert.False(t, ok, n)
	}
}

func paths2(files []File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

// A walk from outside the working directory shows the files inside it
// relative to it, and the others absolute, as display does for any path.
func TestWalkFromAboveTheWorkingDirectory(t *testing.T) {
	root := tree(t, "top.py", "sub/in.py", "sub/deep/more.py")
	opts := DefaultOptions()
	opts.Cwd = filepath.Join(root, "sub")
	files, probs := Find([]string{".."}, opts)
	require.Empty(t, probs)
	assert.ElementsMatch(t, []string{"in.py", "deep/more.py", filepath.ToSlash(filepath.Join(root, "top.py"))}, paths2(files))
}

// A directory the last walk listed and that is now excluded is never
// listed.
func TestListingsOfExcludedDirectories(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("listings are kept on Linux only")
	}
	stamptest.TrustRecent(t)
	root := tree(t, "a.py", "pkg/b.py", "pkg/sub/c.py", "pkg/sub/deep/d.py")
	time.Sleep(20 * time.Millisecond)
	first := DecodeListings(nil)
	opts := DefaultOptions()
	opts.Cwd = root
	opts.Listings = first
	_, probs := Find([]string{"."}, opts)
	require.Empty(t, probs)

	opts.Exclude = []string{"sub"}
	plain := opts
	plain.Listings = nil
	want, _ := Find([]string{"."}, plain)
	opts.Listings = DecodeListings(first.Encode())
	got, probs := Find([]string{"."}, opts)
	require.Empty(t, probs)
	assert.Equal(t, []string{"a.py", "pkg/b.py"}, paths2(want))
	assert.Equal(t, paths2(want), paths2(got))
	// Nor kept: the excluded directories leave the record and the
	// directories a replay watches.
	var walked []string
	opts.Listings.Walked(func(dir string, _ DirStamp, _ func(string) bool) { walked = append(walked, dir) })
	assert.Equal(t, []string{root, filepath.Join(root, "pkg")}, walked)
	again := DecodeListings(opts.Listings.Encode())
	assert.NotContains(t, again.saved, filepath.Join(root, "pkg", "sub"))
}
