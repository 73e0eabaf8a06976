package projectfiles

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/config"
)

func TestScopeAnchorsGlobsWithASlash(t *testing.T) {
	cfg := &config.Config{Root: "/repo/py[thon]", RespectGitignore: true,
		ExtendExclude: []string{"gen", "./pkg/legacy/", "/abs/**", "*.pyi"}}
	s := Scope(cfg)
	assert.True(t, s.RespectGitignore)
	assert.False(t, s.NoDefaultExcludes, "extend-exclude keeps the default excludes")
	assert.Equal(t, []string{"gen", `/repo/py\[thon\]/pkg/legacy/`, "/abs/**", "*.pyi"}, s.Exclude)

	s = Scope(&config.Config{Root: "/repo", Exclude: []string{}})
	assert.True(t, s.NoDefaultExcludes, "exclude, even empty, replaces the default excludes")
	assert.Nil(t, s.Exclude)
}
