package records

import (
	"testing"
	"time"

	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/internal/stdlib"
)

// The corpus is the machine's Python standard library with its test
// folders (SGLINT_BENCH_CORPUS overrides it); the benchmark skips without one.
func corpus(b *testing.B) [][]byte {
	_, files := stdlib.Corpus(b, true)
	return stdlib.Sources(b, files)
}

// BenchmarkFind is the cost of finding raise sites, as a percentage of
// parsing the same files (measured once before the timer starts), with
// records that match most raises of four common classes: the walk reads
// every raise and assert message. Target: a few percent of parsing.
func BenchmarkFind(b *testing.B) {
	srcs := corpus(b)
	p := syntax.NewParser()
	defer p.Close()
	start := time.Now()
	var trees []*syntax.Tree
	var size int64
	for _, src := range srcs {
		if t, err := p.Parse(src); err == nil {
			trees = append(trees, t)
			size += int64(len(src))
		}
	}
	parse := time.Since(start)
	set := NewSet([]*Record{
		{ID: "a", ErrorClass: "RuntimeError", MessagePattern: ".*"},
		{ID: "b", ErrorClass: "ValueError", MessagePattern: `.* must be \w+.*`},
		{ID: "c", ErrorClass: "TypeError", MessagePattern: "expected .*"},
		{ID: "d", ErrorClass: "AssertionError", MessagePattern: ".*"},
	})
	b.SetBytes(size)
	b.ResetTimer()
	sites := 0
	for range b.N {
		sites = 0
		for _, t := range trees {
			sites += len(set.Find(t))
		}
	}
	b.StopTimer()
	per := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(100*float64(per)/float64(parse), "%parse")
	b.ReportMetric(float64(sites), "sites")
}
