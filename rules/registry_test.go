package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every registered rule has a valid identity, and no ID or name is used
// twice (checked here, not at every start of the binary).
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		assert.NoError(t, r.Validate())
		assert.False(t, seen[r.ID] || seen[r.Name], "%s/%s registered twice", r.ID, r.Name)
		seen[r.ID], seen[r.Name] = true, true
	}
	assert.NotEmpty(t, seen)
}
