package kvfail

import (
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
)

// failures runs kvfail on one file and lists each source as
// "line kind text per-request escapes-to".
func failures(t *testing.T, src string) []string {
	t.Helper()
	var mu sync.Mutex
	var out []string
	rule := &analyzer.Rule{ID: "SGL999", Name: "sources", Title: "t", Doc: "t",
		Run: func(p *analyzer.Pass) error {
			res := Of(p)
			mu.Lock()
			defer mu.Unlock()
			for _, f := range res.Failures {
				var to []string
				for _, e := range f.Escapes {
					to = append(to, res.Paths.ShortName(e.Entry.Func))
				}
				sort.Strings(to)
				out = append(out, fmt.Sprintf("%d %s %s %v %v", f.Line, f.Kind, f.Text, f.PerRequest, to))
			}
			return nil
		}}
	res := checker.Run([]checker.Input{{Path: "conn.py", Src: []byte(src), Report: true}},
		checker.Options{Rules: []*analyzer.Rule{rule}, Root: "."})
	require.Empty(t, res.Problems)
	return out
}

func (k Kind) String() string {
	return [...]string{"?", "raise", "assert", "lookup", "pop", "delete", "call"}[k]
}

const base = `import threading
from nixl_like import make_agent


class BaseKVManager:
    pass


class BaseKVSender:
    pass


class Manager(BaseKVManager):
    def __init__(self, queue):
        self.queue = queue
        self.mode = "prefill"
        self.agent = make_agent()
        self.infos = {}
        self.handler = None
        threading.Thread(target=self.worker, daemon=True).start()

    def add(self, room, info):
        self.infos[room] = info

`

// What makes a source depend on the request: locals (data received,
// looked up), parameters of a raise, a sender's own state; not the
// manager's configuration, a local alias of it, or parameters alone in
// an assert.
func TestPerRequest(t *testing.T) {
	src := base + `    def worker(self):
        while True:
            msg = self.queue.get()
            assert self.mode == "prefill"
            handler = self.handler
            assert handler is not None, "not ready"
            assert msg[0] == b"guard", "foreign frame"
            self._check(msg, 3)
            info = self.infos.pop(msg[1])
            self.infos.pop(msg[2], None)
            try:
                self.agent.transfer(info)
            except Exception:
                pass

    def _check(self, frames, n):
        assert n > 0
        if not frames:
            raise ValueError("empty frame")
        if not self.infos:
            raise RuntimeError("nothing registered")


class Sender(BaseKVSender):
    def __init__(self, mgr: Manager, room):
        self.kv_mgr = mgr
        self.room = room
        self.handles = []

    def poll(self):
        assert self.kv_mgr.mode == "prefill"
        if not self.handles:
            raise RuntimeError("nothing sent")
        return 1
`
	got := failures(t, src)
	assert.ElementsMatch(t, []string{
		"28 assert assert self.mode == \"prefill\" false [Manager.worker]",
		"30 assert assert handler is not None, \"not ready\" false [Manager.worker]",
		"31 assert assert msg[0] == b\"guard\", \"foreign frame\" true [Manager.worker]",
		"33 pop self.infos.pop(msg[1]) true [Manager.worker]",
		"41 assert assert n > 0 false [Manager.worker]",
		// _check's "empty frame" raise is excluded: msg[0] was read first.
		"45 raise raise RuntimeError(\"nothing registered\") false [Manager.worker]",
		"55 assert assert self.kv_mgr.mode == \"prefill\" false [Sender.poll]",
		"57 raise raise RuntimeError(\"nothing sent\") true [Sender.poll]",
	}, got)
}

// A third-party call is a source once KV code guards a call of the same
// API; a handler that fails only the request confines a source; a check
// in the caller excludes a callee's raise.
func TestKnownCallsAndConfinement(t *testing.T) {
	src := base + `    def worker(self):
        while True:
            job = self.queue.get()
            if not job.frames:
                continue
            self._parse(job.frames)
            self.agent.transfer(job.handle)
            try:
                self._parse(job.other)
            except Exception:
                pass

    def _parse(self, frames):
        if not frames:
            raise ValueError("empty frame")
        return frames

    def send_aux(self, handle):
        try:
            self.agent.transfer(handle)
        except Exception:
            return None
`
	got := failures(t, src)
	assert.Equal(t, []string{"31 call self.agent.transfer(job.handle) true [Manager.worker]"}, got,
		"_parse's raise escapes nowhere: the frames are checked before the first call, the second is under a handler")
}

// A parameter every KV-path caller binds to configuration is
// configuration: a raise it alone triggers (after early exits on it) is
// not one request's failure. The same helper given received data is.
func TestConfigParameters(t *testing.T) {
	src := base + `    def worker(self):
        while True:
            msg = self.queue.get()
            heads = self._heads(self.mode, 2)
            width = self._width(msg[1])

    def _heads(self, mode, tp):
        total = getattr(mode, "heads", 0)
        if total > 0:
            return total
        raise ValueError("cannot resolve heads")

    def _width(self, frame):
        total = getattr(frame, "width", 0)
        if total > 0:
            return total
        raise ValueError("cannot resolve width")
`
	got := failures(t, src)
	assert.Contains(t, got, "35 raise raise ValueError(\"cannot resolve heads\") false [Manager.worker]")
	assert.Contains(t, got, "41 raise raise ValueError(\"cannot resolve width\") true [Manager.worker]")
}

// The calls that end a request, as the completion rules read them.
func TestEndsRequest(t *testing.T) {
	for _, n := range []string{"prepare_abort", "stream_output", "record_failure", "handle_bootstrap_failure", "mark_failed", "set_finish_with_abort"} {
		assert.True(t, EndsRequest(n), n)
	}
	for _, n := range []string{"increment_transfer_failed_reqs", "log_failure", "update_status", "append", "release_kv_cache"} {
		assert.False(t, EndsRequest(n), n)
	}
}
