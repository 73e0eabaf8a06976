package checker_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/internal/stdlib"
	"github.com/sglint/sglint/rules"
)

// stdlibInputs lists the machine's Python standard library without its
// test folders (the corpus of issue 8's targets) as inputs to report on.
func stdlibInputs(b *testing.B) (root string, in []checker.Input) {
	root, files := stdlib.Corpus(b, false)
	for _, f := range files {
		in = append(in, checker.Input{Path: f.Rel, Abs: f.Abs, Report: true})
	}
	return root, in
}

func defaultRules() []*analyzer.Rule {
	var rs []*analyzer.Rule
	for _, r := range rules.All() {
		if !r.DefaultOff {
			rs = append(rs, r)
		}
	}
	return rs
}

// report adds a run's stage timings to the benchmark's output, per op.
func report(b *testing.B, st *checker.Stats) {
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	b.ReportMetric(ms(st.LoadWall), "load-ms")
	b.ReportMetric(ms(st.Parse), "parse-busy-ms")
	b.ReportMetric(ms(st.Flatten), "flatten-busy-ms")
	b.ReportMetric(ms(st.Summarize), "summarise-busy-ms")
	b.ReportMetric(ms(st.IndexWall), "index-ms")
	b.ReportMetric(ms(st.CheckWall), "check-ms")
	b.ReportMetric(ms(st.RulesTotal()), "rules-busy-ms")
}

// BenchmarkRunStdlib is a whole run of the default rules on the stdlib
// with 2 workers: without a cache (cold), with an unchanged cache (warm),
// and with a cache after a change to one file (edit). bench/run.sh measures
// the same through the binary, against ast-grep.
func BenchmarkRunStdlib(b *testing.B) {
	root, in := stdlibInputs(b)
	rs := defaultRules()
	opts := checker.Options{Rules: rs, Jobs: 2, Root: root}
	b.Run("cold", func(b *testing.B) {
		var st *checker.Stats
		for b.Loop() {
			st = checker.Run(in, opts).Stats
		}
		report(b, st)
	})
	b.Run("warm", func(b *testing.B) {
		store, err := cache.Open(b.TempDir(), "bench")
		if err != nil {
			b.Fatal(err)
		}
		opts := opts
		opts.Cache = store
		checker.Run(in, opts)
		b.ResetTimer()
		for b.Loop() {
			if st := checker.Run(in, opts).Stats; st.Parsed != 0 {
				b.Fatalf("warm run parsed %d files", st.Parsed)
			}
		}
	})
	b.Run("edit", func(b *testing.B) {
		store, err := cache.Open(b.TempDir(), "bench")
		if err != nil {
			b.Fatal(err)
		}
		// The edited file is given as source, like an editor's buffer: the
		// stdlib is not written to. Its summary changes at each run.
		edited := -1
		for i := range in {
			if in[i].Path == "os.py" {
				edited = i
			}
		}
		if edited < 0 {
			b.Skip("no os.py")
		}
		src, err := os.ReadFile(in[edited].Abs)
		if err != nil {
			b.Fatal(err)
		}
		in := append([]checker.Input(nil), in...)
		opts := opts
		opts.Cache = store
		checker.Run(in, opts)
		n := 0
		var st *checker.Stats
		b.ResetTimer()
		for b.Loop() {
			n++
			in[edited].Src = append(append([]byte(nil), src...), strings.Repeat("\ndef _edit(): pass\n", n)...)
			st = checker.Run(in, opts).Stats
		}
		report(b, st)
	})
}
