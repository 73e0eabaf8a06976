package syntax

import (
	"testing"

	"github.com/sglint/sglint/internal/stdlib"
)

// stdlibCorpus loads the machine's Python stdlib without its test folders:
// the corpus the speed targets are stated on.
func stdlibCorpus(b *testing.B) [][]byte {
	_, files := stdlib.Corpus(b, false)
	return stdlib.Sources(b, files)
}

// BenchmarkParseStdlib measures parse + flatten of the whole corpus on one
// goroutine: the floor every later stage is compared with.
func BenchmarkParseStdlib(b *testing.B) {
	srcs := stdlibCorpus(b)
	total := 0
	for _, s := range srcs {
		total += len(s)
	}
	p := NewParser()
	defer p.Close()
	b.SetBytes(int64(total))
	b.ResetTimer()
	for b.Loop() {
		for _, s := range srcs {
			if _, err := p.Parse(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkPackStdlib measures packing every tree of the corpus (what
// loading does to the trees it drops) and unpacking them (what a rule
// pays when it reads a dropped tree), and checks the round trip.
func BenchmarkPackStdlib(b *testing.B) {
	srcs := stdlibCorpus(b)
	p := NewParser()
	defer p.Close()
	trees := make([]*Tree, len(srcs))
	nodes := 0
	for i, s := range srcs {
		t, err := p.Parse(s)
		if err != nil {
			b.Fatal(err)
		}
		trees[i] = t
		nodes += t.Len()
	}
	packed := make([][]byte, len(trees))
	size := 0
	for i, t := range trees {
		packed[i] = t.Pack(nil)
		size += len(packed[i])
		u, err := Unpack(t.Src, packed[i])
		if err != nil || u.Len() != t.Len() || u.SubtreeEnd(0) != t.SubtreeEnd(0) {
			b.Fatalf("round trip of file %d: %v", i, err)
		}
	}
	b.Run("pack", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			for _, t := range trees {
				buf = t.Pack(buf[:0])
			}
		}
		b.ReportMetric(float64(size)/float64(nodes), "bytes/node")
	})
	b.Run("unpack", func(b *testing.B) {
		for b.Loop() {
			for i, t := range trees {
				if _, err := Unpack(t.Src, packed[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
