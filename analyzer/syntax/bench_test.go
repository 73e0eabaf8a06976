package syntax

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stdlibCorpus loads the machine's Python stdlib without its test folders:
// the corpus the speed targets are stated on.
func stdlibCorpus(b *testing.B) [][]byte {
	out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		b.Skip("python3 not available")
	}
	root := strings.TrimSpace(string(out))
	var srcs [][]byte
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case "test", "tests", "idle_test", "site-packages", "__pycache__":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".py") {
			if b, err := os.ReadFile(p); err == nil {
				srcs = append(srcs, b)
			}
		}
		return nil
	})
	return srcs
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
