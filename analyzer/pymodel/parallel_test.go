package pymodel

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A job's panic reaches the caller (where the engine recovers it), instead
// of ending the process from a worker goroutine. (Whether the other jobs
// stop early depends on scheduling, so it is not asserted.)
func TestParallelFilesPanics(t *testing.T) {
	assert.PanicsWithValue(t, "job 3", func() {
		parallelFiles(1000, func(i int) {
			if i == 3 {
				panic("job 3")
			}
		})
	})

	var sum atomic.Int64
	parallelFiles(100, func(i int) { sum.Add(int64(i)) })
	assert.Equal(t, int64(4950), sum.Load())
}
