package analyzer

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRuleValidate(t *testing.T) {
	ok := func() *Rule {
		return &Rule{ID: "SGL123", Name: "some-rule", Title: "t", Doc: "d", Run: func(*Pass) error { return nil }}
	}
	assert.NoError(t, ok().Validate())
	for name, breakIt := range map[string]func(r *Rule){
		"an id of another form": func(r *Rule) { r.ID = "SGL12" },
		"a name not kebab-case": func(r *Rule) { r.Name = "Some_Rule" },
		"no title":              func(r *Rule) { r.Title = "" },
		"no doc":                func(r *Rule) { r.Doc = "" },
		"no run function":       func(r *Rule) { r.Run = nil },
	} {
		r := ok()
		breakIt(r)
		assert.Error(t, r.Validate(), name)
	}
}
