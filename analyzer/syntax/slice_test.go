package syntax

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSliceParts(t *testing.T) {
	for src, want := range map[string][3]string{
		"x[a:b]\n":      {"a", "b", ""},
		"x[:b]\n":       {"", "b", ""},
		"x[a:]\n":       {"a", "", ""},
		"x[::2]\n":      {"", "", "2"},
		"x[a:b:c]\n":    {"a", "b", "c"},
		"x[r, s:e]\n":   {"s", "e", ""},
		"x[: len(y)]\n": {"", "len(y)", ""},
	} {
		tr := parse(t, src)
		sl := NoNode
		for n := tr.Root(); n < NodeID(tr.Len()); n++ {
			if tr.Kind(n) == Slice {
				sl = n
			}
		}
		start, stop, step := tr.SliceParts(sl)
		var got [3]string
		for i, n := range []NodeID{start, stop, step} {
			if n != NoNode {
				got[i] = tr.Text(n)
			}
		}
		assert.Equal(t, want, got, src)
	}
	s, e, st := (&Tree{}).SliceParts(NoNode)
	assert.Equal(t, [3]NodeID{NoNode, NoNode, NoNode}, [3]NodeID{s, e, st})
}
