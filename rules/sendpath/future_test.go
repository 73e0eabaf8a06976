package sendpath

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/pymodel"
)

const futureSrc = `
import threading
from concurrent.futures import as_completed

class Pool(BaseKVManager):
    def __init__(self, jobs, pool):
        self.jobs = jobs
        self.pool = pool
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def _direct(self, job):
        return job

    def _named(self, job):
        return job

    def _gathered(self, job):
        return job

    def _appended(self, job):
        return job

    def _dropped(self, job):
        return job

    def _elsewhere(self, job):
        return job

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            self.pool.submit(self._direct, job).result()
            fut = self.pool.submit(self._named, job)
            fut.result(timeout=5)
            futs = [self.pool.submit(self._gathered, p) for p in job.parts]
            done = [f.result() for f in as_completed(futs)]
            more = []
            for p in job.parts:
                more.append(self.pool.submit(self._appended, p))
            for f in more:
                f.result()
            self.pool.submit(self._dropped, job)
            other = self.pool.submit(self._elsewhere, job)
            fut.result()
`

func TestJoins(t *testing.T) {
	p := OfProject(load(t, map[string]string{"pkg/f.py": futureSrc}), Config{})
	fn := func(q string) pymodel.FuncRef {
		r, ok := p.Index().FuncByName("pkg.f.Pool." + q)
		require.True(t, ok, q)
		return r
	}
	lines := func(q string) []int {
		var out []int
		for _, s := range p.Joins(fn(q)) {
			out = append(out, int(p.Index().Call(s).At.Line))
		}
		return out
	}
	assert.Equal(t, []int{32}, lines("_direct"))
	assert.Equal(t, []int{34, 44}, lines("_named"), "every read of the Future")
	assert.Equal(t, []int{36}, lines("_gathered"))
	assert.Equal(t, []int{41}, lines("_appended"))
	assert.Empty(t, lines("_dropped"))
	assert.Empty(t, lines("_elsewhere"), "`other` is never read")
	e, ok := p.EntryOf(fn("_direct"))
	require.True(t, ok)
	assert.Equal(t, Executor, e.Kind)
}
