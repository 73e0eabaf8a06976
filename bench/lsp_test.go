// Package bench holds benchmarks that drive the real sglint binary on a
// real tree. They are skipped unless SGLINT_BENCH_TREE names one.
package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// BenchmarkDidChange measures, on a whole tree, the time from a didChange
// sent to `sglint server` to the publishDiagnostics of that version: one
// line added to or removed from the end of a disaggregation file, one
// change at a time, as an editor sends them while typing pauses (the
// server's debounce included). The cache is warmed first by a CLI run
// into a temporary SGLINT_CACHE_DIR (nothing is written into the tree).
//
//	SGLINT_BENCH_TREE=/work/trees/lucifer1004/python go test ./bench -run '^$' -bench DidChange -benchtime 40x
//
// SGLINT_BENCH_FILE names the file to edit, relative to the tree
// (default sglang/srt/disaggregation/mori/conn.py). Reported: the mean
// (ns/op), the median and 90th percentile, the time the first
// publication took after didOpen (the project's load from the cache), and
// the median of the server's own time per pass (from its log: parsing the
// file, linking the project, the rules; without the debounce).
func BenchmarkDidChange(b *testing.B) {
	s := startBench(b)
	lines := strings.Count(s.text, "\n")
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		v := s.version + 1
		change := map[string]any{"range": pos(lines, 0, lines, 0), "text": "# edited by the benchmark\n"}
		if i%2 == 1 {
			change = map[string]any{"range": pos(lines, 0, lines+1, 0), "text": ""}
		}
		lat = append(lat, s.changeAndWait(v, change))
	}
	b.StopTimer()
	s.report(b, lat)
}

// BenchmarkDidChangeBurst types a comment line a character at a time (ten
// changes back to back, as fast as the pipe takes them) and measures from
// the last change to the diagnostics of its version: the burst is checked
// once, after the debounce.
func BenchmarkDidChangeBurst(b *testing.B) {
	s := startBench(b)
	lines := strings.Count(s.text, "\n")
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		line := lines + i // each iteration adds a line: the text always changes
		for k, ch := range "# typing!" {
			s.version++
			s.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": s.uri, "version": s.version},
				"contentChanges": []any{map[string]any{"range": pos(line, k, line, k), "text": string(ch)}},
			})
		}
		lat = append(lat, s.changeAndWait(s.version+1, map[string]any{"range": pos(line, 9, line, 9), "text": "\n"}))
	}
	b.StopTimer()
	s.report(b, lat)
}

// The binary and its warm cache are made once per process: the testing
// package runs a benchmark function more than once.
var (
	prepared     sync.Once
	preparedBin  string
	preparedEnv  []string
	preparedErr  error
	preparedTree string
)

// prepare builds sglint and warms a cache of tree in a temporary
// directory, with a CLI run.
func prepare(b *testing.B, tree string) (string, []string) {
	prepared.Do(func() {
		dir, err := os.MkdirTemp("", "sglint-bench-")
		if err != nil {
			preparedErr = err
			return
		}
		preparedTree, preparedBin = tree, filepath.Join(dir, "sglint")
		build := exec.Command("go", "build", "-o", preparedBin, "./cmd/sglint")
		build.Dir = ".."
		if out, err := build.CombinedOutput(); err != nil {
			preparedErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		preparedEnv = append(os.Environ(), "SGLINT_CACHE_DIR="+filepath.Join(dir, "cache"))
		warm := exec.Command(preparedBin, "--exit-zero", "--format", "json", tree)
		warm.Env = preparedEnv
		if out, err := warm.CombinedOutput(); err != nil {
			preparedErr = fmt.Errorf("warming the cache: %v\n%s", err, clip(out))
		}
	})
	if preparedErr != nil {
		b.Fatal(preparedErr)
	}
	if tree != preparedTree {
		b.Fatalf("one tree per process (%s, then %s)", preparedTree, tree)
	}
	return preparedBin, preparedEnv
}

// TestMain removes what prepare made.
func TestMain(m *testing.M) {
	code := m.Run()
	if preparedBin != "" {
		_ = os.RemoveAll(filepath.Dir(preparedBin))
	}
	os.Exit(code)
}

type benchServer struct {
	b       *testing.B
	pid     int
	cpu0    time.Duration // the server's CPU time when the timed loop starts
	in      io.WriteCloser
	pubs    chan published
	mu      sync.Mutex
	passes  []float64 // the server's own account of each pass, in ms
	uri     string
	text    string
	version int
	open    time.Duration
}

type published struct {
	version int
	at      time.Time
	n       int
}

func pos(l1, c1, l2, c2 int) map[string]any {
	return map[string]any{"start": map[string]int{"line": l1, "character": c1}, "end": map[string]int{"line": l2, "character": c2}}
}

func startBench(b *testing.B) *benchServer {
	tree := os.Getenv("SGLINT_BENCH_TREE")
	if tree == "" {
		b.Skip("set SGLINT_BENCH_TREE to a tree to check (e.g. an sglang checkout's python directory)")
	}
	tree, err := filepath.Abs(tree)
	if err != nil {
		b.Fatal(err)
	}
	file := os.Getenv("SGLINT_BENCH_FILE")
	if file == "" {
		file = "sglang/srt/disaggregation/mori/conn.py"
	}
	path := filepath.Join(tree, filepath.FromSlash(file))
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatalf("%v (SGLINT_BENCH_FILE names the file to edit, relative to the tree)", err)
	}
	bin, env := prepare(b, tree)

	cmd := exec.Command(bin, "server")
	cmd.Env = env
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	s := &benchServer{b: b, pid: cmd.Process.Pid, in: in, pubs: make(chan published, 1024), text: string(src), version: 1,
		uri: (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()}
	go s.read(bufio.NewReader(out))
	s.send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"processId": os.Getpid(), "rootUri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(tree)}).String(),
		"capabilities": map[string]any{}}})
	s.notify("initialized", map[string]any{})
	t0 := time.Now()
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": s.uri, "languageId": "python", "version": 1, "text": s.text}})
	p := s.wait(1)
	s.open = p.at.Sub(t0)
	s.cpu0 = cpuTime(s.pid)
	load, _ := os.ReadFile("/proc/loadavg")
	b.Logf("%s: %d diagnostics; first publication %.0f ms after didOpen; load average %s",
		file, p.n, ms(s.open), strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
	return s
}

func (s *benchServer) send(v any) {
	if err := (jsonrpc2.VSCodeObjectCodec{}).WriteObject(s.in, v); err != nil {
		s.b.Fatal(err)
	}
}

func (s *benchServer) notify(method string, params any) {
	s.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// changeAndWait sends one didChange at version v and returns the time to
// its diagnostics.
func (s *benchServer) changeAndWait(v int, change map[string]any) time.Duration {
	s.version = v
	t0 := time.Now()
	s.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": s.uri, "version": v}, "contentChanges": []any{change}})
	return s.wait(v).at.Sub(t0)
}

// wait returns the publication of version v of the file.
func (s *benchServer) wait(v int) published {
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case p, ok := <-s.pubs:
			if !ok {
				s.b.Fatal("the server ended")
			}
			if p.version == v {
				return p
			}
		case <-deadline:
			s.b.Fatalf("no diagnostics for version %d", v)
		}
	}
}

func (s *benchServer) read(r *bufio.Reader) {
	defer close(s.pubs)
	for {
		var m struct {
			Method string `json:"method"`
			Params struct {
				URI         string            `json:"uri"`
				Version     *int              `json:"version"`
				Diagnostics []json.RawMessage `json:"diagnostics"`
				Message     string            `json:"message"`
			} `json:"params"`
		}
		// jsonrpc2's codec reads the frames, not the server's own stream
		// (internal/lsp/stream.go): a second reader of the same format.
		if err := (jsonrpc2.VSCodeObjectCodec{}).ReadObject(r, &m); err != nil {
			return
		}
		at := time.Now()
		switch {
		case m.Method == "textDocument/publishDiagnostics" && m.Params.URI == s.uri && m.Params.Version != nil:
			s.pubs <- published{version: *m.Params.Version, at: at, n: len(m.Params.Diagnostics)}
		case m.Method == "window/logMessage" && strings.HasPrefix(m.Params.Message, "checked in "):
			var pass float64
			if _, err := fmt.Sscanf(m.Params.Message, "checked in %f ms", &pass); err == nil {
				s.mu.Lock()
				s.passes = append(s.passes, pass)
				s.mu.Unlock()
			}
		}
	}
}

func (s *benchServer) report(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	q := func(f float64) time.Duration { return lat[min(len(lat)-1, int(f*float64(len(lat))))] }
	b.ReportMetric(ms(q(0.5)), "p50-ms")
	b.ReportMetric(ms(q(0.9)), "p90-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
	b.ReportMetric(ms(s.open), "open-ms")
	if cpu := cpuTime(s.pid); cpu > 0 { // the work, whatever else the machine runs
		b.ReportMetric(ms(cpu-s.cpu0)/float64(len(lat)), "cpu-ms/op")
	}
	if peak := peakRSS(s.pid); peak > 0 {
		b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
	}
	// A pass logs its time after publishing: wait for the last one's line.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		n := len(s.passes)
		s.mu.Unlock()
		if n > len(lat) {
			break
		}
	}
	s.mu.Lock()
	passes := slices.Clone(s.passes[min(1, len(s.passes)):]) // not the first: the load
	s.mu.Unlock()
	if len(passes) > 0 {
		b.ReportMetric(float64(len(passes))/float64(len(lat)), "passes/op") // 1: each burst checked once
		slices.Sort(passes)
		b.ReportMetric(passes[len(passes)/2], "pass-p50-ms")
	}
}

// cpuTime is the user and system CPU time of process pid so far (0 where
// /proc does not tell).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command name (which may hold spaces), from field 3:
	// utime and stime are fields 14 and 15, in clock ticks (100 a second
	// on Linux).
	rest := string(b[strings.LastIndexByte(string(b), ')')+2:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+st) * 10 * time.Millisecond
}

// peakRSS is the peak resident memory of process pid in bytes (VmHWM; 0
// where /proc does not tell).
func peakRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func clip(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}
