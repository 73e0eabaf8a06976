package pymodel

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/syntax"
)

func TestWithoutPositionsKeepsTheStructureOnly(t *testing.T) {
	const before = `import os
from a.b import c as d

X: int = 1


class K(Base):
    kind: str = "x"

    def m(self, p: int = 2):
        try:
            self.q = d(p, key=os.sep)
        except ValueError as e:
            raise RuntimeError("bad") from e
        return self.q
`
	// The same code, two lines and a few columns further on.
	const after = "# a comment\n\n" + before
	sum := func(src string) *Summary {
		tree, err := syntax.NewParser().Parse([]byte(src))
		require.NoError(t, err)
		var z Summarizer
		return z.Summarize(tree)
	}
	a, b := sum(before), sum(after)
	require.NotEqual(t, a, b, "the positions differ")
	assert.Equal(t, a.WithoutPositions(), b.WithoutPositions())

	// Every Pos and NodeID is zeroed, wherever it sits: a position field
	// added to the summary later must be added to WithoutPositions too.
	stripped := a.WithoutPositions()
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch {
		case v.Type() == reflect.TypeFor[Pos]() || v.Type() == reflect.TypeFor[syntax.NodeID]():
			assert.True(t, v.IsZero(), "%s is not zeroed", path)
			return
		}
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), path+"[]")
			}
		}
	}
	walk(reflect.ValueOf(stripped), "Summary")
	// The original keeps its positions.
	assert.NotZero(t, a.Functions[0].At)
}
