package sendpath

import (
	"sort"
	"sync"
	"testing"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// load runs the engine on in-memory files (paths relative to the root) with
// a rule that captures the project, and returns it.
func load(t *testing.T, files map[string]string) *analyzer.Project {
	t.Helper()
	var mu sync.Mutex
	var proj *analyzer.Project
	capture := &analyzer.Rule{ID: "SGL999", Name: "capture", Title: "t", Doc: "t",
		Run: func(p *analyzer.Pass) error {
			mu.Lock()
			defer mu.Unlock()
			proj = p.Project
			return nil
		}}
	var inputs []checker.Input
	for path, src := range files {
		inputs = append(inputs, checker.Input{Path: path, Src: []byte(src), Report: true})
	}
	sort.Slice(inputs, func(i, j int) bool { return inputs[i].Path < inputs[j].Path })
	res := checker.Run(inputs, checker.Options{Rules: []*analyzer.Rule{capture}, Root: "."})
	require.Empty(t, res.Problems)
	require.NotNil(t, proj)
	return proj
}

func entryNames(p *Paths, only func(Entry) bool) []string {
	var out []string
	for _, e := range p.Entries() {
		if only == nil || only(e) {
			out = append(out, p.ShortName(e.Func)+":"+e.Kind.String())
		}
	}
	return out
}

const managerSrc = `
import threading

class Base(BaseKVManager):
    def send_stub(self, x):
        """Interface only."""

    def send_todo(self, x):
        raise NotImplementedError

class Manager(Base):
    def __init__(self):
        self.descs = []
        threading.Thread(target=self.transfer_worker, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def transfer_worker(self):
        while True:
            self.send_kvcache(1)

    def _drain(self):
        self.send_kvcache(2)

    def add_transfer_request(self, req):
        if req is None:
            return
        self.send_kvcache(req)

    def send_kvcache(self, req):
        return self._slices(req)

    def _slices(self, req):
        return self.descs[:req]

    def send_ping(self):
        self.send_pong()

    def send_pong(self):
        self.send_ping()

    def process(self):
        return self._unrelated()

    def _unrelated(self):
        return 0

def send_module_level(m):
    return m.descs
`

func TestEntriesAndOutermost(t *testing.T) {
	proj := load(t, map[string]string{"pkg/conn.py": managerSrc})
	p := OfProject(proj, Config{})
	assert.Equal(t, []string{
		"Manager.transfer_worker:thread target",
		"Manager._drain:thread target",
		"Manager.add_transfer_request:send entry",
		"Manager.send_kvcache:send entry",
		"Manager.send_ping:send entry",
		"Manager.send_pong:send entry",
	}, entryNames(p, nil), "stubs and module-level functions are not entries; thread targets come first and keep their kind")
	assert.Equal(t, []string{
		"Manager.transfer_worker:thread target",
		"Manager._drain:thread target",
		"Manager.add_transfer_request:send entry",
		"Manager.send_ping:send entry",
		"Manager.send_pong:send entry",
	}, entryNames(p, func(e Entry) bool { return e.Outermost }),
		"send_kvcache is reached from other entries; mutually recursive entries are both outermost")
	assert.Len(t, p.Outermost(), 5)

	ix := p.Index()
	fn := func(q string) pymodel.FuncRef {
		r, ok := ix.FuncByName("pkg.conn." + q)
		require.True(t, ok, q)
		return r
	}
	assert.True(t, p.OnPath(fn("Manager._slices")))
	assert.True(t, p.OnPath(fn("Manager.send_kvcache")))
	assert.False(t, p.OnPath(fn("Manager._unrelated")))
	assert.False(t, p.OnPath(fn("Manager.process")))
	assert.False(t, p.OnPath(fn("Base.send_stub")))

	// Shortest chain from an outermost entry, as related locations.
	rel := p.ChainRelated(fn("Manager._slices"))
	require.Len(t, rel, 3)
	assert.Equal(t, "thread target `Manager.transfer_worker`", rel[0].Message)
	assert.Equal(t, 17, rel[0].Line)
	assert.Equal(t, "calls `Manager.send_kvcache`", rel[1].Message)
	assert.Equal(t, 19, rel[1].Line)
	assert.Equal(t, "calls `Manager._slices`", rel[2].Message)
	assert.Equal(t, 30, rel[2].Line)
	assert.Equal(t, "pkg/conn.py", rel[2].Path)
	assert.Nil(t, p.ChainRelated(fn("Manager._unrelated")))

	// Send-path callers: the three entries' calls, none for an outermost entry.
	assert.Len(t, p.SendCallers(fn("Manager.send_kvcache")), 3)
	assert.Empty(t, p.SendCallers(fn("Manager.add_transfer_request")))
	assert.Len(t, p.SendCallers(fn("Manager._slices")), 1)
}

func TestConfig(t *testing.T) {
	proj := load(t, map[string]string{"pkg/conn.py": managerSrc})
	p := OfProject(proj, Config{Patterns: []string{}, Entries: []string{"Manager.process"}})
	assert.Equal(t, []string{
		"Manager.transfer_worker:thread target",
		"Manager._drain:thread target",
		"Manager.process:configured entry",
	}, entryNames(p, nil), "no patterns: threads and configured entries only")
	ix := p.Index()
	unrelated, _ := ix.FuncByName("pkg.conn.Manager._unrelated")
	assert.True(t, p.OnPath(unrelated))

	// The default configuration is memoised separately.
	d := OfProject(proj, Config{})
	assert.NotSame(t, p, d)
	assert.Same(t, d, OfProject(proj, Config{Patterns: DefaultPatterns}))
	assert.False(t, d.OnPath(unrelated))

	q := OfProject(proj, Config{Patterns: []string{"[bad"}, Entries: []string{"pkg.conn.send_module_level"}})
	assert.Equal(t, []string{
		"Manager.transfer_worker:thread target",
		"Manager._drain:thread target",
		"send_module_level:configured entry",
	}, entryNames(q, nil), "a malformed pattern matches nothing; a full qualified name works")
}

func TestSubclassContext(t *testing.T) {
	// An entry defined in a base class starts on each subclass too, so its
	// self-calls reach the subclasses' hooks.
	proj := load(t, map[string]string{
		"pkg/base.py": `
class BaseSender(BaseKVSender):
    def send_chunk(self, x):
        return self._hook(x)

    def _hook(self, x):
        return x
`,
		"pkg/mori.py": `
from pkg.base import BaseSender

class MoriSender(BaseSender):
    def _hook(self, x):
        return self.descs[x]
`,
	})
	p := OfProject(proj, Config{})
	hook, ok := p.Index().FuncByName("pkg.mori.MoriSender._hook")
	require.True(t, ok)
	assert.True(t, p.OnPath(hook))
	rel := p.ChainRelated(hook)
	require.Len(t, rel, 2)
	assert.Equal(t, "pkg/base.py", rel[0].Path)
	assert.Equal(t, "send entry `BaseSender.send_chunk`", rel[0].Message)
}

func TestEmptyProject(t *testing.T) {
	p := OfProject(&analyzer.Project{}, Config{})
	assert.Empty(t, p.Entries())
	assert.Empty(t, p.Funcs())
}
