package analyzer

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestProjectSharedComputesOncePerKey(t *testing.T) {
	var p Project
	type keyA struct{}
	type keyB struct{ cfg string }
	var calls atomic.Int32
	var wg sync.WaitGroup
	got := make([]any, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = p.Shared(keyA{}, func() any { calls.Add(1); return i })
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(1), calls.Load())
	for _, v := range got {
		assert.Equal(t, got[0], v, "every caller sees the one computed value")
	}
	// Distinct keys (same type, different value; other type) compute apart.
	assert.Equal(t, "x", p.Shared(keyB{"x"}, func() any { return "x" }))
	assert.Equal(t, "y", p.Shared(keyB{"y"}, func() any { return "y" }))
	assert.Equal(t, "x", p.Shared(keyB{"x"}, func() any { return "other" }))
}
