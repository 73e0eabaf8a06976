package pymodel

import (
	"testing"
	"time"

	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/internal/stdlib"
)

// The benchmarks run on the machine's Python standard library without its
// test folders (the corpus of issue 8), and skip when there is none.

type corpusFile struct {
	path string
	src  []byte
}

func stdlibCorpus(b *testing.B) (files []corpusFile, root string) {
	root, list := stdlib.Corpus(b, false)
	for i, src := range stdlib.Sources(b, list) {
		files = append(files, corpusFile{list[i].Abs, src})
	}
	return files, root
}

func parseCorpus(b *testing.B, files []corpusFile) []*syntax.Tree {
	p := syntax.NewParser()
	defer p.Close()
	trees := make([]*syntax.Tree, len(files))
	for i, f := range files {
		t, err := p.Parse(f.src)
		if err != nil {
			b.Fatalf("%s: %v", f.path, err)
		}
		trees[i] = t
	}
	return trees
}

func corpusBytes(files []corpusFile) int64 {
	var n int64
	for _, f := range files {
		n += int64(len(f.src))
	}
	return n
}

// BenchmarkStdlibParse is the baseline: parsing alone, one goroutine.
func BenchmarkStdlibParse(b *testing.B) {
	files, _ := stdlibCorpus(b)
	b.SetBytes(corpusBytes(files))
	b.ReportAllocs()
	for b.Loop() {
		parseCorpus(b, files)
	}
}

// BenchmarkStdlibSummarize is the per-file model on parsed trees.
func BenchmarkStdlibSummarize(b *testing.B) {
	files, _ := stdlibCorpus(b)
	trees := parseCorpus(b, files)
	b.SetBytes(corpusBytes(files))
	b.ReportAllocs()
	var z Summarizer
	for b.Loop() {
		for _, t := range trees {
			z.Summarize(t)
		}
	}
}

// BenchmarkStdlibIndex links the summaries of the whole corpus.
func BenchmarkStdlibIndex(b *testing.B) {
	files, root := stdlibCorpus(b)
	trees := parseCorpus(b, files)
	srcs := make([]SourceFile, len(files))
	for i, f := range files {
		mod, pkg := ModuleName(root, f.path)
		srcs[i] = SourceFile{Path: f.path, Module: mod, Package: pkg, Summary: Summarize(trees[i])}
	}
	b.ReportAllocs()
	for b.Loop() {
		NewIndex(srcs)
	}
}

// BenchmarkStdlibModelOverhead parses, summarises and indexes the corpus,
// interleaved file by file so that a busy machine slows both alike, and
// reports the model's cost as a fraction of the parse ("model/parse"; the
// engine budget for model + CFG is 0.30). Parse and summarise run on one
// goroutine here; the index uses GOMAXPROCS workers as in a real run.
func BenchmarkStdlibModelOverhead(b *testing.B) {
	files, root := stdlibCorpus(b)
	p := syntax.NewParser()
	defer p.Close()
	var z Summarizer
	var parse, model time.Duration
	srcs := make([]SourceFile, len(files))
	for b.Loop() {
		for i, f := range files {
			t0 := time.Now()
			tree, err := p.Parse(f.src)
			if err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			mod, pkg := ModuleName(root, f.path)
			srcs[i] = SourceFile{Path: f.path, Module: mod, Package: pkg, Summary: z.Summarize(tree)}
			t2 := time.Now()
			parse += t1.Sub(t0)
			model += t2.Sub(t1)
		}
		t0 := time.Now()
		NewIndex(srcs)
		model += time.Since(t0)
	}
	b.ReportMetric(float64(model)/float64(parse), "model/parse")
}
