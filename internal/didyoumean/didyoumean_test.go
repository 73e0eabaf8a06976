package didyoumean

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClosest(t *testing.T) {
	ids := []string{"SGL000", "SGL001", "SGL002", "syntax-error", "kv-send-without-readiness-guard"}
	for _, c := range []struct{ word, want string }{
		{"SGL01", "SGL001"},
		{"sgl002", "SGL002"},
		{"SGL0001", "SGL000"},
		{"syntax-eror", "syntax-error"},
		{"kv-send-without-readines-guard", "kv-send-without-readiness-guard"},
	} {
		got, ok := Closest(c.word, ids)
		assert.True(t, ok, c.word)
		assert.Equal(t, c.want, got, c.word)
	}
	for _, word := range []string{"E501", "banana", ""} {
		_, ok := Closest(word, ids)
		assert.False(t, ok, word)
	}
	_, ok := Closest("x", nil)
	assert.False(t, ok)
}

func TestClosestTies(t *testing.T) {
	got, ok := Closest("SGL011", []string{"SGL001", "SGL010"})
	assert.True(t, ok)
	assert.Equal(t, "SGL010", got, "longer common prefix")
	got, _ = Closest("selct", []string{"ignore", "select", "extend-select"})
	assert.Equal(t, "select", got)
	got, _ = Closest("per_file_ignores", []string{"per-file-ignores", "ignore"})
	assert.Equal(t, "per-file-ignores", got)
}

func TestDistance(t *testing.T) {
	assert.Equal(t, 0, distance("abc", "abc"))
	assert.Equal(t, 3, distance("", "abc"))
	assert.Equal(t, 1, distance("é", "e"))
	assert.Equal(t, 2, distance("ab", "ba"))
}
