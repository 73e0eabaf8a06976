"""Raise sites for the fixture records in testdata/records/own (SGL010).

Each record names one message below; the entries show the gated, partly
gated, caught-per-request and escaping shapes.
"""

import threading
from kvbase import BaseKVSender

class PlanSender(BaseKVSender):
    def __init__(self, engine, jobs, fatal_jobs, index):
        self.engine = engine
        self.jobs = jobs
        self.fatal_jobs = fatal_jobs
        self.index = index
        self.layer_plan = []
        self.remote_windows = {}
        self.ring = None
        threading.Thread(target=self._serve, daemon=True).start()
        threading.Thread(target=self._serve_fatal, daemon=True).start()

    def build(self, layers, windows):
        self.layer_plan = list(layers)
        self.remote_windows.update(windows)

    # a1f0c0de00000001: gated at every entry.
    def _plan_layers(self, pages):
        if not self.layer_plan:
            raise RuntimeError("Layer plan is missing for this rank")
        return [(layer, pages) for layer in self.layer_plan]

    def send_plan_full(self, pages):
        if not self.layer_plan:
            return []
        return self.engine.post(self._plan_layers(pages))

    def send_plan_delta(self, pages, delta):
        if not self.layer_plan:
            return []
        return self.engine.post(self._plan_layers(pages + delta))

    # a1f0c0de00000002: gated at one entry, not at the other.
    def _window_for(self, peer):
        if peer not in self.remote_windows:
            raise ValueError("Remote window is not registered")
        return self.remote_windows[peer]

    def send_window_checked(self, peer, pages):
        if peer not in self.remote_windows:
            return None
        return self.engine.post([(self._window_for(peer), pages)])

    def send_window_fast(self, peer, pages):
        return self.engine.post([(self._window_for(peer), pages)])  # want: SGL010 "a1f0c0de00000002"

    # a1f0c0de00000003: caught by a handler that fails only the job.
    def _stage(self, job):
        slot = self.engine.reserve(job.size)
        if slot is None:
            raise RuntimeError("Staging slot unavailable")
        return slot

    def _serve(self):
        while True:
            job = self.jobs.get()
            try:
                self.engine.post([(self._stage(job), job.pages)])
            except Exception as exc:
                job.fail(str(exc))

    # a1f0c0de00000004: escapes the worker thread.
    def _advance_ring(self, job):
        if job.size > self.engine.free_bytes():
            raise RuntimeError("Ring buffer wrapped before the reader caught up")
        return self.engine.claim(job.size)

    def _serve_fatal(self):
        while True:
            job = self.fatal_jobs.get()
            self.engine.post([(self._advance_ring(job), job.pages)])  # want: SGL010 "a1f0c0de00000004"

    # a1f0c0de00000006 (JSON Lines file): f-string message.
    def _plan_for(self, peer):
        plan = self.engine.lookup_plan(peer)
        if plan is None:
            raise RuntimeError(f"No transfer plan for peer {peer}")
        return plan

    def send_planned(self, peer, pages):
        return self.engine.post([(self._plan_for(peer), pages)])  # want: SGL010 "a1f0c0de00000006"

    # a1f0c0de00000007 (JSON Lines file): %-style message.
    def _segment(self, name, room):
        if name not in self.engine.segments:
            raise LookupError("Unknown segment %s for room %d" % (name, room))
        return self.engine.segments[name]

    def send_segment(self, name, room, pages):
        return self.engine.post([(self._segment(name, room), pages)])  # want: SGL010 "a1f0c0de00000007"

    # a1f0c0de00000008: assert with a %-style message.
    def _ring_view(self):
        assert self.ring is not None, "Ring is not initialised for worker %d" % self.index
        return self.ring.view()

    def send_ring(self, pages):
        return self.engine.post([(self._ring_view(), pages)])  # want: SGL010 "a1f0c0de00000008"

    def send_ring_checked(self, pages):
        if self.ring is None:
            return None
        return self.engine.post([(self._ring_view(), pages)])

    # a1f0c0de00000007 again: the caller checked one request's segment and
    # passes the name on through another object's field of the same name
    # (`chunk.name`, then `info.name`: one request's id carried from record
    # to record). The check counts; a field of another name does not.
    def send_segment_carried(self, chunk, info, room, pages):
        if chunk.name not in self.engine.segments:
            return None
        return self.engine.post([(self._segment(info.name, room), pages)])

    def send_segment_other_field(self, chunk, info, room, pages):
        if chunk.name not in self.engine.segments:
            return None
        return self.engine.post([(self._segment(info.label, room), pages)])  # want: SGL010 "a1f0c0de00000007"
