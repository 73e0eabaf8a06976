package pymodel

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A job's panic reaches the caller (where the engine recovers it), instead
// of ending the process from a worker goroutine; the other jobs stop.
func TestParallelFilesPanics(t *testing.T) {
	var ran atomic.Int64
	assert.PanicsWithValue(t, "job 3", func() {
		parallelFiles(1000, func(i int) {
			ran.Add(1)
			if i == 3 {
				panic("job 3")
			}
		})
	})
	assert.Less(t, ran.Load(), int64(1000), "the workers stopped early")

	var sum atomic.Int64
	parallelFiles(100, func(i int) { sum.Add(int64(i)) })
	assert.Equal(t, int64(4950), sum.Load())
}
