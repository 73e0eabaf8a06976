package pyname

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsIdent(t *testing.T) {
	for s, want := range map[string]bool{"a": true, "_x1": true, "été": true, "": false, "1a": false, "a.b": false, "a b": false} {
		assert.Equal(t, want, IsIdent(s), "%q", s)
	}
}

func TestSplitTop(t *testing.T) {
	assert.Equal(t, []string{"A", " B[C, D]", " metaclass=M({1, 2})"}, SplitTop("A, B[C, D], metaclass=M({1, 2})", ','))
	assert.Equal(t, []string{"int ", " Optional[a | b]"}, SplitTop("int | Optional[a | b]", '|'))
	assert.Equal(t, []string{""}, SplitTop("", ','))
}

func TestResolveRelative(t *testing.T) {
	for _, tc := range []struct {
		from   string
		pkg    bool
		level  int
		module string
		want   string
		ok     bool
	}{
		{"a.b.c", false, 0, "x", "x", true},
		{"a.b.c", false, 1, "x", "a.b.x", true},
		{"a.b.c", false, 2, "", "a", true},
		{"a.b", true, 1, "x", "a.b.x", true},
		{"a.b", false, 2, "x", "x", true}, // up to the top: absolute
		{"a.b", false, 3, "x", "", false}, // above the top package
		{"top", false, 2, "x", "", false},
		{"a.b.mori.conn", false, 2, "common.conn", "a.b.common.conn", true},
		{"a.b.mori.conn", false, 1, "", "a.b.mori", true},
		{"a.b.mori", true, 2, "common", "a.b.common", true},
		{"conn", false, 1, "x", "x", true},
	} {
		got, ok := ResolveRelative(tc.from, tc.pkg, tc.level, tc.module)
		assert.Equal(t, tc.ok, ok, "%+v", tc)
		assert.Equal(t, tc.want, got, "%+v", tc)
	}
}

func TestTails(t *testing.T) {
	assert.Equal(t, []string{"b.c.d", "c.d"}, slices.Collect(Tails("a.b.c.d")))
	assert.Empty(t, slices.Collect(Tails("a.b")))
	assert.Empty(t, slices.Collect(Tails("a")))
	for range Tails("a.b.c.d") {
		break // stopping early is allowed
	}
}

func TestModules(t *testing.T) {
	m := NewModules(4)
	m.Add("python.sglang.srt.conn", 0)
	m.Add("python.other.srt.conn", 2)
	m.Add("python.sglang.utils", 3)
	m.Add("solo", 4)
	m.Add("solo", 5) // the first file of a name wins
	for _, tc := range []struct {
		name string
		want int32
		ok   bool
	}{
		{"python.sglang.srt.conn", 0, true},
		{"sglang.srt.conn", 0, true}, // a tail only it has
		{"srt.conn", -1, false},      // two files end with it
		{"sglang.utils", 3, true},
		{"utils", -1, false}, // not dotted: names only exactly
		{"missing.mod", -1, false},
		{"solo", 4, true},
	} {
		got, ok := m.Lookup(tc.name)
		assert.Equal(t, tc.ok, ok, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
	_, ok := m.Exact("sglang.utils")
	assert.False(t, ok, "Exact does not go by tails")
}

func TestIsDotted(t *testing.T) {
	for s, want := range map[string]bool{"a": true, "pkg.mod": true, "self.kv_mgr.descs": true, "": false, "a.": false, ".a": false, "a..b": false, "a.1b": false} {
		assert.Equal(t, want, IsDotted(s), "%q", s)
	}
}
