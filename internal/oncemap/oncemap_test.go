package oncemap

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// However many goroutines ask, each key's value is computed once, and
// every caller gets it.
func TestGetComputesOnce(t *testing.T) {
	var m Map[int, string]
	var calls [4]atomic.Int32
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for k := range 4 {
				got := m.Get(k, func() string {
					calls[k].Add(1)
					return string(rune('a' + k))
				})
				assert.Equal(t, string(rune('a'+k)), got, "goroutine %d", g)
			}
		})
	}
	wg.Wait()
	for k := range calls {
		assert.Equal(t, int32(1), calls[k].Load(), "key %d", k)
	}
}
