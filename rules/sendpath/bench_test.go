package sendpath

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
)

// synthetic builds files managers, each with a registration list, guarded
// and unguarded helpers, nested entries and a worker thread: the shape of a
// backend's conn.py, repeated.
func synthetic(files int) []checker.Input {
	var ins []checker.Input
	for i := 0; i < files; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "import threading\n\nclass Manager%d:\n", i)
		b.WriteString(`    def __init__(self, args, jobs):
        self.descs = []
        self.jobs = jobs
        for p in args.ptrs:
            self.descs.append(p)
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def _split(self, remote):
        if not self.descs:
            raise RuntimeError("empty")
        half = len(self.descs) // 2
        return self.descs[:half], remote[half:]

    def _flat(self, remote):
        return self.descs, remote

    def send_kvcache(self, req):
        if req.flat:
            return self._flat(req.remote)
        return self._split(req.remote)

    def send_aux(self, req):
        if not self.descs:
            return None
        return self.descs[0]

    def add_transfer_request(self, req):
        if req.dummy:
            return None
        self.send_aux(req)
        return self.send_kvcache(req)

    def transfer_worker(self):
        while True:
            req = self.jobs.get()
            try:
                self.add_transfer_request(req)
            except Exception as e:
                req.fail(e)
`)
		ins = append(ins, checker.Input{Path: fmt.Sprintf("pkg/m%d.py", i), Src: []byte(b.String()), Report: true})
	}
	return ins
}

// BenchmarkSendPaths measures building the send paths and their facts for
// a 200-file project (the engine's load and index are outside the timer).
func BenchmarkSendPaths(b *testing.B) {
	var proj *analyzer.Project
	capture := &analyzer.Rule{ID: "SGL999", Name: "capture", Title: "t", Doc: "t",
		Run: func(p *analyzer.Pass) error { proj = p.Project; return nil }}
	checker.Run(synthetic(200), checker.Options{Rules: []*analyzer.Rule{capture}, Root: ".", Jobs: 1})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A fresh memo each time: copy the project's public fields.
		p := &analyzer.Project{Root: proj.Root, Files: proj.Files, Index: proj.Index}
		if got := OfProject(p, Config{}); len(got.Entries()) != 800 {
			b.Fatalf("entries: %d", len(got.Entries()))
		}
	}
}
