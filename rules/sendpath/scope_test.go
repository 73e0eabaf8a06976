package sendpath

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A project shaped like sglang: abstract bases in one file, a common layer
// in another, backends deriving from it (one through two levels), and
// look-alikes outside the KV classes that send, start processes and
// threads, and call into KV code.
var scopeFiles = map[string]string{
	"proj/base/conn.py": `
from abc import ABC, abstractmethod

class BaseKVManager(ABC):
    @abstractmethod
    def send_kvcache(self, req): ...

class BaseKVSender(ABC):
    @abstractmethod
    def send(self, pages): ...

class BaseKVBootstrapServer(ABC):
    def send_address(self):
        return 1
`,
	"proj/common/conn.py": `
from proj.base.conn import BaseKVManager, BaseKVSender

class CommonKVManager(BaseKVManager):
    def _send_multipart(self, parts):
        return parts
`,
	"proj/fast/conn.py": `
import threading
from proj.common.conn import CommonKVManager
from proj.base.conn import BaseKVSender

def _pump(mgr):
    mgr.send_kvcache(None)

class FastKVManager(CommonKVManager):
    def __init__(self):
        self.descs = []
        threading.Thread(target=_pump, args=(self,), daemon=True).start()

    def send_kvcache(self, req):
        return self.descs[0]

class FasterKVManager(FastKVManager):
    def send_aux(self, req):
        def worker():
            return self.descs[-1]
        threading.Thread(target=worker).start()

class FastKVSender(BaseKVSender):
    def send_pages(self, pages):
        return pages
`,
	"proj/managers/scheduler.py": `
import multiprocessing
import threading

class Scheduler:
    def __init__(self):
        self.waiting_queue = []
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self):
        self.send_to_detokenizer()

    def send_to_detokenizer(self):
        for r in self.waiting_queue:
            print(r)

def run_scheduler_process():
    Scheduler()

def launch():
    multiprocessing.Process(target=run_scheduler_process).start()

def send_weights_to_remote_instance(group, name):
    return group[name]
`,
}

func entrySet(p *Paths) []string {
	return entryNames(p, nil)
}

func TestScopeKVClassesAndEntries(t *testing.T) {
	proj := load(t, scopeFiles)
	p := OfProject(proj, Config{})
	assert.ElementsMatch(t, []string{
		"_pump:thread target",                           // started by a KV class, though module-level
		"FasterKVManager.send_aux.worker:thread target", // a closure in a KV method
		"CommonKVManager._send_multipart:send entry",
		"FastKVManager.send_kvcache:send entry",
		"FasterKVManager.send_aux:send entry",
		"FastKVSender.send_pages:send entry",
	}, entrySet(p), "only KV classes (any depth, any file) and the threads they start; the bootstrap server, "+
		"the scheduler's send_* and threads, the process target and send_weights_* are not entries")

	ix := p.Index()
	class := func(q string) bool {
		c, ok := ix.ClassByName(q)
		require.True(t, ok, q)
		return p.Scope().IsKVClass(c)
	}
	assert.True(t, class("proj.base.conn.BaseKVManager"))
	assert.True(t, class("proj.common.conn.CommonKVManager"))
	assert.True(t, class("proj.fast.conn.FasterKVManager"), "two levels below the common class")
	assert.False(t, class("proj.base.conn.BaseKVBootstrapServer"))
	assert.False(t, class("proj.managers.scheduler.Scheduler"))

	sched, ok := ix.FuncByName("proj.managers.scheduler.Scheduler.send_to_detokenizer")
	require.True(t, ok)
	assert.False(t, p.OnPath(sched))
	// The KV method next to it is: the false above is not OnPath's default.
	send, ok := ix.FuncByName("proj.fast.conn.FastKVManager.send_kvcache")
	require.True(t, ok)
	assert.True(t, p.OnPath(send))
}

func TestScopeConfiguredBases(t *testing.T) {
	proj := load(t, scopeFiles)
	// A project whose transfer code derives from other bases names them.
	p := OfProject(proj, Config{Bases: []string{"proj.base.conn.BaseKVSender"}})
	assert.Equal(t, []string{"FastKVSender.send_pages:send entry"}, entrySet(p))

	// No bases: only configured entries, wherever they are.
	p = OfProject(proj, Config{Bases: []string{}, Entries: []string{"Scheduler.send_to_detokenizer"}})
	assert.Equal(t, []string{"Scheduler.send_to_detokenizer:configured entry"}, entrySet(p))
}

func TestScopeUnresolvedBaseByWrittenName(t *testing.T) {
	// The base file is not loaded (a checkout of one backend): the class
	// still counts by the base's written name.
	proj := load(t, map[string]string{"conn.py": `
from sglang.srt.disaggregation.base.conn import BaseKVManager

class OnlyKVManager(BaseKVManager):
    def send_kvcache(self, req):
        return req
`})
	p := OfProject(proj, Config{})
	assert.Equal(t, []string{"OnlyKVManager.send_kvcache:send entry"}, entrySet(p))
}

func TestScopeOptions(t *testing.T) {
	o := DefaultScopeOptions()
	require.NoError(t, o.Validate())
	assert.Equal(t, Config{Patterns: DefaultPatterns, Bases: DefaultBases, SchedulerBases: DefaultSchedulerBases,
		SchedulerMethods: DefaultSchedulerMethods, ServerBases: DefaultServerBases, QueueModules: DefaultQueueModules,
		QueueClasses: DefaultQueueClasses, QueueMethods: DefaultQueueMethods, RaisingMethods: DefaultRaisingMethods}, o.Config())
	for _, bad := range []*ScopeOptions{
		{EntryPatterns: []string{"send_["}},
		{Bases: []string{""}},
		{Bases: []string{"a..b"}},
		{Entries: []string{"Mgr.send kv"}},
		{RaisingMethods: []string{""}},
	} {
		assert.Error(t, bad.Validate(), "%+v", bad)
	}
	assert.NoError(t, (&ScopeOptions{Bases: []string{"pkg.mod.Base"}, Entries: []string{"C.m"}}).Validate())
}
