"""Publishing a peer into the table that transfer threads read, before or
after the peer is fully prepared."""

import threading

from peerpkg.base import PeerTableBase


class PeerLayout:
    def __init__(self, name, meta, kinds):
        self.name = name
        self.meta = meta
        self.kinds = kinds
        self.dest_kind = None
        self.segments = None
        self.ready = False

    def finalize(self):
        self.ready = True


class Registrar(PeerTableBase):
    def __init__(self, agent, jobs, prefill):
        super().__init__()
        self.agent = agent
        self.jobs = jobs
        self.prefill = prefill
        self.debug_index = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def _prepare(self, layout):
        kinds = set(layout.kinds)
        if len(kinds) != 1:
            raise NotImplementedError("mixed memory kinds")
        layout.dest_kind = kinds.pop()
        layout.segments = []

    def add_peer_early(self, layout):
        if layout.name in self.peer_layouts:
            return
        self.peer_layouts[layout.name] = layout  # want: SGL003 "published before"
        self.agent.connect(layout.meta)
        self._prepare(layout)

    def add_peer_last(self, layout):
        if layout.name in self.peer_layouts:
            return
        self.agent.connect(layout.meta)
        self._prepare(layout)
        self.peer_layouts[layout.name] = layout

    def add_peer_rollback(self, layout):
        if layout.name in self.peer_layouts:
            return
        try:
            self.agent.connect(layout.meta)
            self._prepare(layout)
            self.peer_layouts[layout.name] = layout
        except Exception:
            if self.peer_layouts.get(layout.name) is layout:
                self.peer_layouts.pop(layout.name, None)
            self.agent.disconnect(layout.meta)
            raise

    def add_peer_prefill_only(self, layout):
        self.peer_layouts[layout.name] = layout  # want: SGL003 "published before"
        if self.prefill:
            self._prepare(layout)

    def add_peer_mark_ready(self, layout):
        self.peer_layouts[layout.name] = layout  # want: SGL003 "published before"
        layout.ready = True

    def add_peer_ready_first(self, layout):
        layout.ready = True
        self.peer_layouts[layout.name] = layout

    def add_peer_finalize_late(self, layout):
        self.peer_layouts[layout.name] = layout  # want: SGL003 "published before"
        layout.finalize()

    def add_peer_finalize_first(self, layout):
        layout.finalize()
        self.peer_layouts[layout.name] = layout

    def add_peer_then_log(self, layout):
        self._prepare(layout)
        self.peer_layouts[layout.name] = layout
        self.agent.log("registered %s as %s" % (layout.name, layout.dest_kind))

    def index_peer(self, layout):
        self.debug_index[layout.name] = layout
        self._prepare(layout)

    def describe(self, name):
        return self.debug_index[name]

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            try:
                if job.peer not in self.peer_layouts:
                    job.fail("peer not registered")
                    continue
                layout = self.peer_layouts[job.peer]
                self.agent.post(job.pages, layout.dest_kind, layout.segments)
            except Exception as exc:
                job.fail(str(exc))
