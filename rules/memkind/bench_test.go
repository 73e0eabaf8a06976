package memkind

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sglint/sglint/analyzer"
	driver "github.com/sglint/sglint/analyzer/checker"
)

// synthetic builds a backend-like file: a dataclass with Optional fields
// and a manager whose methods send with checked and unchecked kinds.
func synthetic(i, methods int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `import dataclasses
from typing import Optional


@dataclasses.dataclass
class Info%d:
    name: str
    kind%d: Optional[str] = None


class Manager%d(BaseKVManager):
    def __init__(self):
        self.table = {}
        self.src_kind = None

    def send_kvcache(self, peer, pages, dst_mem_kind="VRAM"):
        return self.agent.post(peer, pages, dst_mem_kind)
`, i, i, i)
	for m := range methods {
		fmt.Fprintf(&b, `
    def send_%d(self, peer, pages, allow):
        info = self.table[peer]
        kind = None
        if allow:
            try:
                kind = info.kind%d
            except KeyError:
                return None
        if info.kind%d is None:
            raise RuntimeError("missing kind")
        for p in pages:
            self.send_kvcache(peer, p, dst_mem_kind=info.kind%d)
        return self.send_kvcache(peer, pages, dst_mem_kind=kind)
`, m, i, i, i)
	}
	return b.String()
}

// BenchmarkRule times SGL002 on 50 files of 40 send methods each, against
// a run of a rule that does nothing (parsing and the project model).
func BenchmarkRule(b *testing.B) {
	var in []driver.Input
	for i := range 50 {
		in = append(in, driver.Input{Path: fmt.Sprintf("pkg/m%d.py", i), Src: []byte(synthetic(i, 40)), Report: true})
	}
	noop := &analyzer.Rule{ID: "SGL999", Name: "noop", Title: "t", Doc: "d", Run: func(*analyzer.Pass) error { return nil }}
	b.Run("baseline", func(b *testing.B) {
		for range b.N {
			driver.Run(in, driver.Options{Rules: []*analyzer.Rule{noop}, Jobs: 1})
		}
	})
	b.Run("SGL002", func(b *testing.B) {
		for range b.N {
			res := driver.Run(in, driver.Options{Rules: []*analyzer.Rule{Rule}, Jobs: 1})
			if len(res.Diagnostics) != 50*40 {
				b.Fatalf("%d findings, want %d", len(res.Diagnostics), 50*40)
			}
		}
	})
}
