package pymodel

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sources summarises files (sorted by path), reusing the summaries of
// reuse for the paths it has, as a session does for unchanged files.
func sources(t *testing.T, files map[string]string, reuse []SourceFile) []SourceFile {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []SourceFile
	for _, p := range paths {
		var s *Summary
		for _, r := range reuse {
			if r.Path == p {
				s = r.Summary
			}
		}
		if s == nil {
			s = summarize(t, files[p])
		}
		mod, pkg := ModuleName("", p)
		out = append(out, SourceFile{Path: p, Module: mod, Package: pkg, Summary: s})
	}
	return out
}

// dumpIndex renders what rules ask an index: calls and their callees,
// callers, bases, subclasses, self paths, entries, function summaries.
func dumpIndex(ix *Index) string {
	var b strings.Builder
	for fi := range ix.Files {
		f := &ix.Files[fi]
		fmt.Fprintf(&b, "file %s %s\n", f.Path, f.Module)
		b.WriteString(strings.Join(callLines(ix, f.Module), "\n") + "\n")
		for ci := range f.Summary.Classes {
			c := ClassRef{int32(fi), int32(ci)}
			var mro, subs []string
			for _, base := range ix.MRO(c) {
				mro = append(mro, base.Name)
			}
			for _, s := range ix.Subclasses(c) {
				subs = append(subs, ix.ClassName(s))
			}
			fmt.Fprintf(&b, "class %s mro=%v subs=%v paths=%v\n", ix.ClassName(c), mro, subs, ix.SelfPaths(c))
		}
		for _, fn := range ix.FuncsOf(int32(fi)) {
			var callers []string
			for _, site := range ix.Callers(fn) {
				callers = append(callers, fmt.Sprint(site))
			}
			fmt.Fprintf(&b, "func %s callers=%v summary=%+v\n", ix.FuncName(fn), callers, *ix.FuncSummary(fn))
		}
	}
	for _, e := range ix.Entries() {
		fmt.Fprintf(&b, "entry %d %s\n", e.Kind, ix.FuncName(e.Func))
	}
	return b.String()
}

// An index linked from a previous one, after edits of some files, answers
// as one linked from scratch; the previous one is left as it was.
func TestNewIndexFromAgreesWithNewIndex(t *testing.T) {
	before := sources(t, kvProject, nil)
	prev := NewIndex(before)
	prevDump := dumpIndex(prev)

	edits := []map[string]string{
		{ // a method added to a base class, one renamed
			"pkg/common/conn.py": strings.Replace(strings.Replace(kvProject["pkg/common/conn.py"],
				"    def hook(self):", "    def hook2(self):", 1),
				"    def register(self):", "    def prepare(self):\n        self.table.clear()\n\n    def register(self):", 1),
		},
		{ // a re-export gone, a module added
			"pkg/__init__.py": "",
			"pkg/extra.py":    "from pkg.mori.conn import MoriKVManager\n\nclass Extra(MoriKVManager):\n    def send_kv(self, info):\n        return None\n",
		},
	}
	for i, edit := range edits {
		files := map[string]string{}
		for p, s := range kvProject {
			files[p] = s
		}
		for p, s := range edit {
			files[p] = s
		}
		var unchanged []SourceFile
		for _, f := range before {
			if _, edited := edit[f.Path]; !edited {
				unchanged = append(unchanged, f)
			}
		}
		after := sources(t, files, unchanged)
		reused := 0
		for _, j := range prev.sameFiles(after) {
			if j >= 0 {
				reused++
			}
		}
		require.Equal(t, len(unchanged), reused, "edit %d", i)
		fresh := dumpIndex(NewIndex(after))
		assert.Equal(t, fresh, dumpIndex(NewIndexFrom(after, prev)), "edit %d", i)
		assert.Equal(t, prevDump, dumpIndex(prev), "edit %d: the previous index is unchanged", i)
	}
}
