package records

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shipped records load, carry no prose, and a loaded record of the
// same id replaces them.
func TestBuiltin(t *testing.T) {
	b := Builtin()
	require.Equal(t, 2, b.Len())
	r := b.Lookup("795554d942550d42")
	require.NotNil(t, r)
	assert.True(t, r.Builtin)
	assert.Equal(t, "RuntimeError", r.ErrorClass)
	assert.Equal(t, "python/sglang/srt/disaggregation/mori/conn.py", r.FilePath)
	assert.Equal(t, "2026-08-28T06:17:29.519Z", r.DatasetVersion)
	assert.Equal(t, "0132848349585cfe6aae51c4941cbae872505f8a", r.AnalyzedSha)
	assert.Empty(t, r.Documentation+r.TriggerScenarios+r.CommonSituations)
	assert.Empty(t, r.Solutions)
	assert.NotNil(t, b.Lookup("missing-nixl-destination-kv-memory-kind"), "by slug")

	assert.Equal(t, 2, WithBuiltin(nil).Len())
	mine := &Record{ID: "d0bf6111ca6909b6", ErrorClass: "RuntimeError", MessagePattern: "Missing .*", Documentation: "ours"}
	other := &Record{ID: "a1", ErrorClass: "ValueError", MessagePattern: "x"}
	s := WithBuiltin(NewSet([]*Record{mine, other}))
	require.Equal(t, 3, s.Len())
	assert.Same(t, mine, s.Lookup("d0bf6111ca6909b6"), "the loaded record wins")
	assert.True(t, s.Lookup("795554d942550d42").Builtin)
}
