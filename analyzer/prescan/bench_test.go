package prescan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkScanTree pre-scans every .py file under $SGLINT_BENCH_TREE (an
// sglang checkout's python/, say); skipped when it is not set.
func BenchmarkScanTree(b *testing.B) {
	root := os.Getenv("SGLINT_BENCH_TREE")
	if root == "" {
		b.Skip("SGLINT_BENCH_TREE is not set")
	}
	var srcs [][]byte
	var n int64
	_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(p, ".py") {
			if src, err := os.ReadFile(p); err == nil {
				srcs = append(srcs, src)
				n += int64(len(src))
			}
		}
		return nil
	})
	b.SetBytes(n)
	b.ResetTimer()
	for range b.N {
		for _, s := range srcs {
			Scan(s)
		}
	}
}
