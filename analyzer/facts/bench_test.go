package facts

import (
	"testing"
	"time"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/internal/stdlib"
)

// The corpus is the machine's Python standard library with its test
// folders (SGLINT_BENCH_CORPUS overrides it). Benchmarks skip without it.
func corpus(b *testing.B) [][]byte {
	_, files := stdlib.Corpus(b, true)
	return stdlib.Sources(b, files)
}

func parseAll(b *testing.B, p *syntax.Parser, srcs [][]byte) []*syntax.Tree {
	trees := make([]*syntax.Tree, 0, len(srcs))
	for _, src := range srcs {
		if tree, err := p.Parse(src); err == nil {
			trees = append(trees, tree)
		}
	}
	return trees
}

func size(srcs [][]byte) int64 {
	var n int64
	for _, s := range srcs {
		n += int64(len(s))
	}
	return n
}

// BenchmarkParse is the baseline: tree-sitter parsing into the flat tree.
func BenchmarkParse(b *testing.B) {
	srcs := corpus(b)
	p := syntax.NewParser()
	defer p.Close()
	b.SetBytes(size(srcs))
	b.ResetTimer()
	for range b.N {
		parseAll(b, p, srcs)
	}
}

// engineFile builds every graph of tree and, with facts set, analyzes it.
func engineFile(tree *syntax.Tree, facts bool) (graphs int) {
	for _, root := range cfg.Roots(tree) {
		g := cfg.New(tree, root)
		graphs++
		if facts {
			Analyze(tree, g, Options{})
		}
	}
	return graphs
}

// benchEngine reports the engine's cost as a percentage of parsing
// (%parse; the target is at most 30). Parsing and the engine alternate
// file by file and are timed separately, so both see the same machine
// load: the ratio stays meaningful on a busy machine where ns/op does not.
// ns/op counts both; engine-ns/op is the engine alone.
func benchEngine(b *testing.B, facts bool) {
	srcs := corpus(b)
	p := syntax.NewParser()
	defer p.Close()
	b.SetBytes(size(srcs))
	b.ReportAllocs()
	var parse, engine time.Duration
	graphs := 0
	b.ResetTimer()
	for range b.N {
		graphs = 0
		for _, src := range srcs {
			t0 := time.Now()
			tree, err := p.Parse(src)
			t1 := time.Now()
			parse += t1.Sub(t0)
			if err != nil {
				continue
			}
			graphs += engineFile(tree, facts)
			engine += time.Since(t1)
		}
	}
	b.ReportMetric(100*float64(engine)/float64(parse), "%parse")
	b.ReportMetric(float64(engine.Nanoseconds())/float64(b.N), "engine-ns/op")
	b.ReportMetric(float64(graphs), "graphs")
}

func BenchmarkCFG(b *testing.B)      { benchEngine(b, false) }
func BenchmarkCFGFacts(b *testing.B) { benchEngine(b, true) }

// BenchmarkQuery is the cost of asking Holds at every subscript of the
// corpus, the kind of query rules make.
func BenchmarkQuery(b *testing.B) {
	srcs := corpus(b)
	p := syntax.NewParser()
	defer p.Close()
	trees := parseAll(b, p, srcs)
	type q struct {
		r *Result
		n syntax.NodeID
		f Fact
	}
	var qs []q
	for _, tree := range trees {
		for _, root := range cfg.Roots(tree) {
			r := Analyze(tree, cfg.New(tree, root), Options{})
			end := tree.SubtreeEnd(root)
			for n := root; n < end; n++ {
				if tree.Kind(n) == syntax.Subscript {
					if v, ok := PathOf(tree, tree.Field(n, syntax.FValue)); ok && cfg.Owner(tree, n) == root {
						qs = append(qs, q{r, n, nonEmpty(v)})
					}
				}
			}
		}
	}
	b.ResetTimer()
	for range b.N {
		for _, x := range qs {
			x.r.Holds(x.n, x.f)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(qs)), "ns/query")
}
