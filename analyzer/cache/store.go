// Package cache keeps sglint's per-file results on disk between runs, in
// .sglint_cache/ at the project root: a content-checked key-value store
// (Store) and the binary codec its values are written with (Marshal).
//
// An entry is one file. A new one is written to a temporary name in its
// directory and renamed into place; one that exists is rewritten in place
// (Put says why). An entry carries a magic number, the format version, the
// key it was written for, its length and a CRC-32 of its payload; one that
// fails any check (a torn write, a disk error, a file copied from
// elsewhere, an older sglint) reads as absent and is rewritten: a run that
// reads an entry while another run rewrites it reads it whole, or reads
// it absent and computes it again. Entries live under a directory named
// for the engine (the sglint executable's build ID), so an upgrade starts
// a fresh directory; directories of other engines unused for a week are
// removed when a store is opened.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// formatVersion changes when the entry layout changes (2: the payload's
// checksum is a CRC-32, where 1 had a SHA-256).
const formatVersion = 2

var magic = [8]byte{'S', 'G', 'L', 'C', 'A', 'C', 'H', 'E'}

// headerSize: magic, version (4), key (32), payload length (8), CRC-32 (4).
//
// The checksum guards against a disk error or a file changed by hand, not
// an attacker (whoever can write the cache can write a valid entry), so a
// CRC does: the IEEE one, which the CPU computes (PCLMULQDQ, ARMv8 CRC32)
// and whose tables cost nothing to make (Castagnoli's take 0.15 ms on
// amd64, a warm run's worth of checksums). An edit run reads about 2 MB of
// entries, whose SHA-256 took over a millisecond.
const headerSize = 8 + 4 + 32 + 8 + 4

// Key names an entry: a hash of everything its value depends on.
type Key [32]byte

// NewKey hashes parts, each length-prefixed so that no two lists of parts
// collide.
func NewKey(parts ...[]byte) Key {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	var k Key
	h.Sum(k[:0])
	return k
}

func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Store is a cache directory for one engine. It is safe for concurrent use
// by goroutines and by processes.
type Store struct {
	root     string // the cache directory (.sglint_cache)
	dir      string // root/v<format>-<engine>
	readOnly bool   // see OpenReadOnly

	// Background writes (PutLater).
	writes    sync.WaitGroup
	pendingMu sync.Mutex
	pending   map[Key]*pendingWrite
}

// staleAfter is how long the directory of another engine is kept.
const staleAfter = 7 * 24 * time.Hour

// Open returns the store of engine (an identifier of the sglint build,
// see EngineID) under root, creating root with a CACHEDIR.TAG and a
// .gitignore that ignores everything. It also removes the directories of
// other engines that no run has used for a week.
func Open(root, engine string) (*Store, error) {
	s, err := newStore(root, engine)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	writeIfMissing(filepath.Join(root, "CACHEDIR.TAG"), "Signature: 8a477f597d28d172789f06886806bc55\n"+
		"# This file is a cache directory tag created by sglint.\n"+
		"# For information about cache directory tags see https://bford.info/cachedir/\n")
	writeIfMissing(filepath.Join(root, ".gitignore"), "# Created by sglint.\n*\n")
	writeIfMissing(filepath.Join(s.dir, engineMarker), engine+"\n")
	now := time.Now()
	_ = os.Chtimes(s.dir, now, now) // marks this engine's directory as in use
	s.prune(now)
	return s, nil
}

// newStore is the store of engine under root, not yet opened.
func newStore(root, engine string) (*Store, error) {
	if engine == "" || strings.ContainsAny(engine, `/\`) {
		return nil, fmt.Errorf("cache: bad engine id %q", engine)
	}
	return &Store{root: root, dir: filepath.Join(root, fmt.Sprintf("v%d-%s", formatVersion, engine))}, nil
}

// ErrReadOnly is what Put returns on a store opened with OpenReadOnly.
var ErrReadOnly = errors.New("cache: read-only store")

// OpenReadOnly returns the store of engine under root for a reader that
// must write nothing (the language server): nothing is created, marked or
// pruned, and Put fails with ErrReadOnly. It is an error when the engine's
// directory does not exist (no run of this build wrote a cache there).
func OpenReadOnly(root, engine string) (*Store, error) {
	s, err := newStore(root, engine)
	if err != nil {
		return nil, err
	}
	s.readOnly = true
	info, err := os.Stat(s.dir)
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("cache: %s is not a directory", s.dir)
	}
	return s, nil
}

// ReadOnly reports whether the store was opened with OpenReadOnly.
func (s *Store) ReadOnly() bool { return s.readOnly }

// engineMarker names the file that marks a directory as an engine's: only
// such directories are ever pruned (SGLINT_CACHE_DIR may point to a
// directory that holds other things).
const engineMarker = ".sglint-engine"

// Dir is the directory holding this engine's entries.
func (s *Store) Dir() string { return s.dir }

func writeIfMissing(path, content string) {
	if _, err := os.Lstat(path); err == nil {
		return
	}
	_ = writeAtomic(path, []byte(content))
}

// prune removes other engines' directories unused for staleAfter.
func (s *Store) prune(now time.Time) {
	ents, err := os.ReadDir(s.root)
	if err != nil {
		return
	}
	for _, e := range ents {
		p := filepath.Join(s.root, e.Name())
		if !e.IsDir() || p == s.dir || !strings.HasPrefix(e.Name(), "v") {
			continue
		}
		if _, err := os.Lstat(filepath.Join(p, engineMarker)); err != nil {
			continue // not a cache directory of sglint's
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > staleAfter {
			_ = os.RemoveAll(p)
		}
	}
}

func (s *Store) path(k Key) string {
	h := k.String()
	return filepath.Join(s.dir, h[:2], h[2:])
}

// Get returns the payload stored under k, or nil if there is none or the
// entry fails a check (see the package documentation).
func (s *Store) Get(k Key) []byte {
	if p, ok := s.pendingPayload(k); ok {
		return p
	}
	b, err := os.ReadFile(s.path(k))
	if err != nil {
		return nil
	}
	p, err := decodeEntry(b, k)
	if err != nil {
		return nil
	}
	return p
}

// errBadEntry is an entry that fails a check.
var errBadEntry = errors.New("cache: bad entry")

func decodeEntry(b []byte, k Key) ([]byte, error) {
	if len(b) < headerSize || !bytes.Equal(b[:8], magic[:]) ||
		binary.LittleEndian.Uint32(b[8:12]) != formatVersion || !bytes.Equal(b[12:44], k[:]) {
		return nil, errBadEntry
	}
	n := binary.LittleEndian.Uint64(b[44:52])
	payload := b[headerSize:]
	if n != uint64(len(payload)) {
		return nil, errBadEntry
	}
	if crc32.ChecksumIEEE(payload) != binary.LittleEndian.Uint32(b[52:56]) {
		return nil, errBadEntry
	}
	return payload, nil
}

// Put stores payload under k, replacing any entry.
//
// An entry that exists is rewritten in place: most of a run's entries
// have fixed keys (the bundles' shards, the plan, the findings, the
// record of the run's output), and a file created and another deleted per
// entry cost this machine's ext4 0.2 to 0.8 ms each (a deleted inode is
// not reused at once, so each run allocates fresh ones); in place, an edit
// run was 1.4 ms faster on both sglang trees. A writer locks the file it
// rewrites, and one that finds it locked renames its entry into place
// instead (overwrite); a reader takes no lock, so a reader at the same time
// (another run on the same cache) may read a mix of two versions, which
// its length and CRC-32 checks reject as they reject a torn write after a
// crash: it reads the entry as absent. A new entry is written aside and
// renamed into place, as every entry is off Linux, macOS and the BSDs.
func (s *Store) Put(k Key, payload []byte) error {
	if s.readOnly {
		return ErrReadOnly
	}
	head := make([]byte, headerSize)
	copy(head, magic[:])
	binary.LittleEndian.PutUint32(head[8:], formatVersion)
	copy(head[12:], k[:])
	binary.LittleEndian.PutUint64(head[44:], uint64(len(payload)))
	binary.LittleEndian.PutUint32(head[52:], crc32.ChecksumIEEE(payload))
	path := s.path(k)
	if overwrite(path, head, payload) == nil {
		return nil
	}
	err := writeAtomic(path, head, payload)
	if errors.Is(err, os.ErrNotExist) {
		if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
			err = writeAtomic(path, head, payload)
		}
	}
	return err
}

// writeAtomic writes parts to a temporary file next to path and renames it
// to path, removing path first: a new entry's way (or any entry's where
// overwrite is not supported or fails). Renaming over an existing file
// costs ext4 (auto_da_alloc) a flush of the new file's data, 0.15 to 0.8
// ms of kernel time per entry on the bench machine against 0.02 ms for a
// rename to a free name. The price: a concurrent run may find the entry
// missing for an instant (then it computes it again), and a crash may
// leave it torn (its checks reject it).
func writeAtomic(path string, parts ...[]byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	err = f.Chmod(0o644) // CreateTemp's 0600 would hide a shared cache from other users
	for _, b := range parts {
		if err == nil {
			_, err = f.Write(b)
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		_ = os.Remove(path) // absent the first time
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}
