package checker

import (
	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/syntax"
)

// file is a loaded file with what the driver keeps beside it.
type file struct {
	*analyzer.File
	// hash is the SHA-256 of the source (computed when the run has a cache).
	hash [32]byte
	// packed is the dropped tree in syntax.Pack's encoding, a third of its
	// size and much faster to rebuild than parsing again. Guarded by the
	// File's tree lock (written in DropTree, read in the rebuild).
	packed []byte
	// summaryCached: the summary is in the cache, read only if the project
	// index is needed.
	summaryCached bool
	// fromCache: the file was not parsed; its packed tree may be cached.
	fromCache bool
	trees     *treeLoader
	// sumDigest is summaryDigest(Summary) once taken, or as the cache kept
	// it with the summary; zero until then.
	sumDigest [16]byte
}

// summaryDigest is summaryDigest(f.Summary), taken once.
func (f *file) summaryDigest() [16]byte {
	if f.sumDigest == [16]byte{} {
		f.sumDigest = summaryDigest(f.Summary)
	}
	return f.sumDigest
}

// newFile wraps a file read from disk (or standard input) for a run whose
// trees loader rebuilds dropped trees.
func newFile(path, abs string, report bool, src []byte, trees *treeLoader) *file {
	f := &file{trees: trees}
	f.File = analyzer.NewLoadedFile(path, abs, report, src, f.rebuild)
	return f
}

// treeAtHand returns the file's tree when it costs no parse: in memory,
// or packed (here or in the cache) and unpacked now; nil otherwise. It
// reads packed without the tree lock: a session calls it as it sets a
// file (Session.Set), between checks, when no rule is rebuilding a tree.
func (f *file) treeAtHand() *syntax.Tree {
	if t := f.LoadedTree(); t != nil {
		return t
	}
	if f.packed != nil || f.fromCache && f.trees != nil && f.trees.cached != nil {
		return f.Tree()
	}
	return nil
}

// rebuild brings the tree back: from its packed form, or the cache's, or
// by parsing again. It runs under the File's tree lock.
func (f *file) rebuild(src []byte) *syntax.Tree {
	var t *syntax.Tree
	if f.packed == nil && f.fromCache && f.trees != nil && f.trees.cached != nil {
		f.packed = f.trees.cached(f)
	}
	if f.packed != nil {
		t = f.trees.unpack(src, f.packed)
		f.packed = nil
	}
	if t == nil {
		t = f.trees.parse(src)
	}
	return t
}

// packTree replaces the tree in memory by its packed form, appended to buf
// (a worker's scratch space) and copied; it returns buf for reuse. Tree
// unpacks it if asked.
func (f *file) packTree(buf []byte) []byte {
	f.DropTree(func(t *syntax.Tree) {
		if t == nil {
			return
		}
		buf = t.Pack(buf[:0])
		f.packed = append([]byte(nil), buf...)
	})
	return buf
}
