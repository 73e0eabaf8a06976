package cache

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStoreRoundTrip(t *testing.T) {
	root := filepath.Join(t.TempDir(), ".sglint_cache")
	s, err := Open(root, "e1")
	require.NoError(t, err)
	k := NewKey([]byte("a"), []byte("b"))
	assert.Nil(t, s.Get(k), "absent")
	require.NoError(t, s.Put(k, []byte("payload")))
	assert.Equal(t, []byte("payload"), s.Get(k))
	require.NoError(t, s.Put(k, []byte("second")))
	assert.Equal(t, []byte("second"), s.Get(k))
	require.NoError(t, s.Put(k, nil))
	assert.NotNil(t, s.Get(k), "an empty payload is present")
	assert.Empty(t, s.Get(k))

	tag, err := os.ReadFile(filepath.Join(root, "CACHEDIR.TAG"))
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(tag, []byte("Signature: 8a477f597d28d172789f06886806bc55")))
	ign, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	require.NoError(t, err)
	assert.Contains(t, string(ign), "\n*\n")
	leftovers, _ := filepath.Glob(filepath.Join(s.Dir(), "*", ".tmp-*"))
	assert.Empty(t, leftovers, "no temporary files are left behind")
}

func TestKeysDoNotCollide(t *testing.T) {
	assert.NotEqual(t, NewKey([]byte("ab"), []byte("c")), NewKey([]byte("a"), []byte("bc")))
	assert.NotEqual(t, NewKey([]byte("a")), NewKey([]byte("a"), nil))
	assert.Equal(t, NewKey([]byte("x")), NewKey([]byte("x")))
}

// Whatever happened to an entry's file, Get returns the payload written or
// nothing: never other bytes.
func TestStoreRejectsDamagedAndForeignEntries(t *testing.T) {
	s, err := Open(t.TempDir(), "e1")
	require.NoError(t, err)
	k, other := NewKey([]byte("k")), NewKey([]byte("other"))
	payload := []byte("the payload of k")
	require.NoError(t, s.Put(k, payload))
	good, err := os.ReadFile(s.path(k))
	require.NoError(t, err)

	check := func(name string, b []byte) {
		t.Helper()
		require.NoError(t, os.WriteFile(s.path(k), b, 0o644))
		got := s.Get(k)
		if got != nil && !bytes.Equal(got, payload) {
			t.Fatalf("%s: got %q", name, got)
		}
		if !bytes.Equal(b, good) {
			assert.Nil(t, got, name)
		}
	}
	for i := 0; i < len(good); i++ {
		check(fmt.Sprintf("cut at %d", i), good[:i])
		d := bytes.Clone(good)
		d[i] ^= 0x40
		check(fmt.Sprintf("byte %d flipped", i), d)
	}
	check("trailing byte", append(bytes.Clone(good), 0))
	check("not an entry", []byte("garbage that is long enough to fill a header, and then some more bytes, really"))

	// An entry written for another key (a file copied or renamed) is foreign.
	require.NoError(t, s.Put(other, payload))
	b, err := os.ReadFile(s.path(other))
	require.NoError(t, err)
	check("entry of another key", b)

	// Another engine's store does not see this one's entries.
	require.NoError(t, os.WriteFile(s.path(k), good, 0o644))
	s2, err := Open(s.root, "e2")
	require.NoError(t, err)
	assert.Nil(t, s2.Get(k))
	assert.Equal(t, payload, s.Get(k))
}

// An entry that exists is rewritten in its file (no file created or
// deleted per write); what a rewrite seen half done leaves is rejected.
func TestPutRewritesInPlace(t *testing.T) {
	if overwrite("", nil) == errors.ErrUnsupported {
		t.Skip("entries are always renamed into place here")
	}
	s, err := Open(t.TempDir(), "e1")
	require.NoError(t, err)
	k := NewKey([]byte("k"))
	long := bytes.Repeat([]byte("the first payload, the longer one; "), 200)
	require.NoError(t, s.Put(k, long))
	before, err := os.Stat(s.path(k))
	require.NoError(t, err)
	oldFile, err := os.ReadFile(s.path(k))
	require.NoError(t, err)

	short := []byte("the second payload")
	require.NoError(t, s.Put(k, short))
	after, err := os.Stat(s.path(k))
	require.NoError(t, err)
	assert.True(t, os.SameFile(before, after), "the same file, rewritten")
	assert.Equal(t, int64(headerSize+len(short)), after.Size(), "cut to the new entry")
	assert.Equal(t, short, s.Get(k))
	newFile, err := os.ReadFile(s.path(k))
	require.NoError(t, err)

	// A reader during the rewrite may read the new header over the old
	// payload, the old header over part of the new one, or the new entry
	// before the cut: each reads as absent.
	for name, mix := range map[string][]byte{
		"new header, old payload":      append(bytes.Clone(newFile[:headerSize]), oldFile[headerSize:]...),
		"new header, part of old":      append(bytes.Clone(newFile[:headerSize]), oldFile[headerSize:headerSize+len(short)]...),
		"old header, new payload over": append(append(bytes.Clone(oldFile[:headerSize]), short...), oldFile[headerSize+len(short):]...),
		"new entry, old tail uncut":    append(bytes.Clone(newFile), oldFile[len(newFile):]...),
	} {
		require.NoError(t, os.WriteFile(s.path(k), mix, 0o644))
		assert.Nil(t, s.Get(k), name)
	}
}

// A symbolic link in the place of an entry is replaced, never written
// through: a writable cache directory must not steer a write elsewhere.
func TestPutReplacesALinkNotItsTarget(t *testing.T) {
	s, err := Open(t.TempDir(), "e1")
	require.NoError(t, err)
	k := NewKey([]byte("k"))
	require.NoError(t, s.Put(k, []byte("first")))
	target := filepath.Join(t.TempDir(), "precious.txt")
	require.NoError(t, os.WriteFile(target, []byte("keep me"), 0o644))
	require.NoError(t, os.Remove(s.path(k)))
	require.NoError(t, os.Symlink(target, s.path(k)))

	require.NoError(t, s.Put(k, []byte("second")))
	kept, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "keep me", string(kept))
	fi, err := os.Lstat(s.path(k))
	require.NoError(t, err)
	assert.True(t, fi.Mode().IsRegular(), "the link was replaced by the entry")
	assert.Equal(t, []byte("second"), s.Get(k))
}

// Concurrent writers and readers of one key, in separate stores as in
// separate processes: readers see nothing or one complete payload.
func TestStoreConcurrentWriters(t *testing.T) {
	root := t.TempDir()
	k := NewKey([]byte("shared"))
	payloads := map[string]bool{}
	for i := 0; i < 8; i++ {
		payloads[string(bytes.Repeat([]byte{byte('a' + i)}, 64<<10+i))] = true
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for w := 0; w < 8; w++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			s, err := Open(root, "e")
			if err != nil {
				errs <- err
				return
			}
			p := bytes.Repeat([]byte{byte('a' + w)}, 64<<10+w)
			for i := 0; i < 20; i++ {
				if err := s.Put(k, p); err != nil {
					errs <- err
				}
			}
		}()
		go func() {
			defer wg.Done()
			s, err := Open(root, "e")
			if err != nil {
				errs <- err
				return
			}
			for i := 0; i < 50; i++ {
				if got := s.Get(k); got != nil && !payloads[string(got)] {
					errs <- fmt.Errorf("read a payload nobody wrote (%d bytes)", len(got))
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	s, _ := Open(root, "e")
	assert.True(t, payloads[string(s.Get(k))], "the last writer's payload is there")
	leftovers, _ := filepath.Glob(filepath.Join(s.Dir(), "*", ".tmp-*"))
	assert.Empty(t, leftovers)
}

func TestOpenPrunesOldEngines(t *testing.T) {
	root := t.TempDir()
	old, err := Open(root, "old")
	require.NoError(t, err)
	recent, err := Open(root, "recent")
	require.NoError(t, err)
	foreign := filepath.Join(root, "v1-videos") // not sglint's: never removed
	require.NoError(t, os.MkdirAll(foreign, 0o755))
	long := time.Now().Add(-8 * 24 * time.Hour)
	require.NoError(t, os.Chtimes(old.Dir(), long, long))
	require.NoError(t, os.Chtimes(foreign, long, long))
	_, err = Open(root, "new")
	require.NoError(t, err)
	assert.NoDirExists(t, old.Dir())
	assert.DirExists(t, recent.Dir())
	assert.DirExists(t, foreign)
	_, err = Open(root, "../escape")
	assert.Error(t, err)
}

// BenchmarkPut measures writing entries of a typical size (what a cold
// run with a cache does once per file and configuration).
func BenchmarkPut(b *testing.B) {
	s, err := Open(b.TempDir(), "e")
	if err != nil {
		b.Fatal(err)
	}
	payload := bytes.Repeat([]byte("x"), 12<<10)
	i := 0
	for b.Loop() {
		i++
		if err := s.Put(NewKey([]byte(fmt.Sprint(i%2000))), payload); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGet(b *testing.B) {
	s, err := Open(b.TempDir(), "e")
	if err != nil {
		b.Fatal(err)
	}
	payload := bytes.Repeat([]byte("x"), 12<<10)
	for i := 0; i < 2000; i++ {
		_ = s.Put(NewKey([]byte(fmt.Sprint(i))), payload)
	}
	i := 0
	for b.Loop() {
		i++
		if s.Get(NewKey([]byte(fmt.Sprint(i%2000)))) == nil {
			b.Fatal("missing")
		}
	}
}
