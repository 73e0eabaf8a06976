package peertable

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
)

func index(t *testing.T, files map[string]string) *pymodel.Index {
	t.Helper()
	p := syntax.NewParser()
	defer p.Close()
	paths := make([]string, 0, len(files))
	for path := range files {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	var srcs []pymodel.SourceFile
	for _, path := range paths {
		tree, err := p.Parse([]byte(files[path]))
		require.NoError(t, err)
		mod, pkg := pymodel.ModuleName("", path)
		srcs = append(srcs, pymodel.SourceFile{Path: path, Module: mod, Package: pkg, Summary: pymodel.Summarize(tree)})
	}
	return pymodel.NewIndex(srcs)
}

const base = `
from collections import defaultdict, OrderedDict

class Base:
    cache = {}
    def __init__(self):
        self.peers = {}
        self.plain = dict()
        self.ordered = OrderedDict()
        self.counts = defaultdict(int)
        self.never_written = {}
        self.mixed = {}
        self.listy = []
        self.cache_only = {}

    def reset(self):
        self.mixed = self.load()

    def describe(self, k):
        return self.peers[k], self.never_written.get(k), self.cache[k]
`

const sub = `
from pkg.base import Base

class Sub(Base):
    def add(self, k, v):
        self.peers[k] = v
        self.plain.setdefault(k, v)
        self.ordered[k] = v
        self.counts[k] += 1
        self.mixed[k] = v
        self.listy[0] = v
        self.cache[k] = v

class Other:
    def __init__(self):
        self.peers = defaultdict(list)

    def add(self, k, v):
        self.peers[k] = v
`

func TestLookup(t *testing.T) {
	ix := index(t, map[string]string{"pkg/__init__.py": "", "pkg/base.py": base, "pkg/sub.py": sub})
	baseC, ok := ix.ClassByName("pkg.base.Base")
	require.True(t, ok)
	subC, ok := ix.ClassByName("pkg.sub.Sub")
	require.True(t, ok)
	otherC, ok := ix.ClassByName("pkg.sub.Other")
	require.True(t, ok)
	f := New(ix)

	for _, attr := range []string{"peers", "plain", "ordered", "cache"} {
		// Written in the subclass, created in the base: a table seen from
		// either end of the hierarchy.
		for _, c := range []pymodel.ClassRef{baseC, subC} {
			tab := f.Lookup(c, attr)
			if assert.NotNil(t, tab, "%s of %s", attr, ix.ClassName(c)) {
				assert.Equal(t, attr, tab.Attr)
				assert.Len(t, tab.Writes, 1)
				assert.NotEmpty(t, tab.Inits)
			}
		}
	}
	for _, attr := range []string{"counts", "never_written", "mixed", "listy", "missing", "", "peers.x"} {
		assert.Nil(t, f.Lookup(subC, attr), attr)
	}
	// Same name, another class whose attribute is a defaultdict.
	assert.Nil(t, f.Lookup(otherC, "peers"))
	assert.Nil(t, f.Lookup(pymodel.NoClass, "peers"))

	// The base's read is among the uses.
	tab := f.Lookup(baseC, "peers")
	require.NotNil(t, tab)
	var reads int
	for _, u := range tab.Uses {
		if ix.Use(u).Kind == pymodel.Read {
			reads++
		}
	}
	assert.Equal(t, 1, reads)
	assert.Same(t, tab, f.Lookup(baseC, "peers"), "answers are remembered")
}

func TestFileUses(t *testing.T) {
	ix := index(t, map[string]string{"pkg/__init__.py": "", "pkg/base.py": base, "pkg/sub.py": sub})
	// A name not found gives the zero ref, which the checks below reject.
	baseF, _ := ix.FileOf("pkg/base.py")
	subF, _ := ix.FileOf("pkg/sub.py")
	baseC, _ := ix.ClassByName("pkg.base.Base")
	subC, _ := ix.ClassByName("pkg.sub.Sub")
	require.NotEqual(t, baseF, subF)
	require.NotEqual(t, baseC, subC)
	f := New(ix)

	type got struct {
		attr, self string
		class      pymodel.ClassRef
	}
	collect := func(file int32, kind pymodel.UseKind, op pymodel.UseOp) []got {
		var out []got
		for tu := range f.FileUses(file, kind, op) {
			assert.Equal(t, tu.Use.Path, tu.Table.Attr)
			assert.Equal(t, pymodel.FuncRef{File: file, Func: tu.Use.Func}, tu.Func)
			out = append(out, got{tu.Use.Path, tu.Self, tu.Class})
		}
		return out
	}
	// Stores by key into tables only: not counts (a defaultdict), mixed,
	// listy, nor Other.peers (a defaultdict of another class).
	assert.Equal(t, []got{{"peers", "self", subC}, {"ordered", "self", subC}, {"cache", "self", subC}},
		collect(subF, pymodel.Mutate, pymodel.MutSetItem))
	// Subscript reads; never_written.get is another op and not a table.
	assert.Equal(t, []got{{"peers", "self", baseC}, {"cache", "self", baseC}},
		collect(baseF, pymodel.Read, pymodel.ReadIndex))
	assert.Empty(t, collect(baseF, pymodel.Mutate, pymodel.MutSetItem))

	// Stopping early stops the walk.
	n := 0
	for range f.FileUses(subF, pymodel.Mutate, pymodel.MutSetItem) {
		n++
		break
	}
	assert.Equal(t, 1, n)
}

// A table its own class never writes, filled by a receiver through the
// manager it holds, is a table; a non-dict assigned through the holder
// makes it none.
func TestWritesThroughHolder(t *testing.T) {
	ix := index(t, map[string]string{"pkg/m.py": `
class Manager:
    def __init__(self):
        self.expected = {}
        self.shared = {}

    def read(self, room):
        return self.expected[room], self.shared[room]

class Receiver:
    def __init__(self, mgr: Manager, room):
        self.kv_mgr = mgr
        self.kv_mgr.expected[room] = 1
        self.kv_mgr.shared[room] = 2

    def reset(self):
        self.kv_mgr.shared = load()
`})
	mgr, ok := ix.ClassByName("pkg.m.Manager")
	require.True(t, ok)
	f := New(ix)
	tab := f.Lookup(mgr, "expected")
	require.NotNil(t, tab)
	assert.Len(t, tab.Writes, 1)
	assert.Len(t, tab.Uses, 3, "its creation, the manager's read and the receiver's store")
	assert.Nil(t, f.Lookup(mgr, "shared"), "rebound to something else through the holder")

	recv, ok := ix.FuncByName("pkg.m.Receiver.__init__")
	require.True(t, ok)
	var found []string
	for su := range f.FileUses(recv.File, pymodel.Mutate, pymodel.MutSetItem) {
		found = append(found, su.Self+"."+su.Use.Path)
		assert.Equal(t, mgr, su.Class)
	}
	assert.Equal(t, []string{"self.kv_mgr.expected"}, found)
}
