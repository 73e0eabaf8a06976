package namepattern

import (
	"path"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every pattern shape must agree with path.Match, which defines the
// option's meaning.
func TestAgreesWithPathMatch(t *testing.T) {
	pats := []string{"send_*", "*mem_kind", "*kv*", "transfer_worker", "*", "**", "",
		"_send_?", "[st]end_*", `\*x`, `x\*`, "*a*b", "a*b", `*\**`}
	names := []string{"", "send_kv", "send_", "xsend_kv", "dst_mem_kind", "mem_kind", "mem_kinds",
		"kv", "a_kv_b", "transfer_worker", "transfer_worker2", "_send_a", "_send_ab", "tend_x",
		"*x", "x*", "ab", "axb", "a/b", "send_/x", "*", "a*b"}
	for _, p := range pats {
		s, err := Compile([]string{p})
		require.NoError(t, err, p)
		for _, n := range names {
			want, _ := path.Match(p, n)
			assert.Equal(t, want, s.Match(n), "pattern %q, name %q", p, n)
		}
	}
}

func TestSetAndErrors(t *testing.T) {
	s := MustCompile([]string{"send_*", "*mem_kind"})
	assert.True(t, s.Match("send_kv"))
	assert.True(t, s.Match("dst_mem_kind"))
	assert.False(t, s.Match("recv"))
	var zero *Set
	assert.False(t, zero.Match("x"))
	_, err := Compile([]string{"ok_*", "bad["})
	assert.ErrorContains(t, err, `"bad["`)
	assert.Panics(t, func() { MustCompile([]string{"["}) })
}
