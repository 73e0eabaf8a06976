"""Record d0bf6111ca6909b6 in miniature: the destination memory kind is
filled by a preparation step and may still be None when a send reads it."""

import threading
from typing import List, Optional

from kindpkg.base_kinds import KindDefaults
from kindpkg.layouts import PeerLayout


def single_kind(kinds: List[str]) -> str:
    unique = set(kinds)
    if len(unique) != 1:
        raise NotImplementedError("mixed memory kinds")
    return next(iter(unique))


def kind_or_none(kinds: List[str]) -> Optional[str]:
    if not kinds:
        return None
    return kinds[0]


class KindWriter(KindDefaults):
    def __init__(self, agent, jobs):
        super().__init__()
        self.agent = agent
        self.jobs = jobs
        self.kind_overrides = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    # Sinks. send_kvcache and write_region use the kind as given;
    # write_checked refuses None before any use.
    def send_kvcache(self, peer, pages, ptrs, device, dst_mem_kind="VRAM"):
        return self.agent.post(peer, pages, ptrs, device, dst_mem_kind)

    def send_kvcache_mixed(self, peer, pages, dst_mem_kinds):
        return self.agent.post_many(peer, pages, dst_mem_kinds)

    def write_region(self, peer, pages, dst_mem_kind):
        return self.agent.post(peer, pages, [], 0, dst_mem_kind)

    def write_checked(self, peer, pages, dst_mem_kind=None):
        if dst_mem_kind is None:
            raise RuntimeError("Missing NIXL destination KV memory kind")
        return self.agent.post(peer, pages, [], 0, dst_mem_kind)

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            try:
                self._dispatch(job)
            except Exception as exc:
                job.fail(str(exc))

    def _dispatch(self, job):
        layout = job.layout
        if layout.relayout:
            return self._send_callee_checked(job, layout)
        if job.legacy:
            return self._send_unchecked(job)
        return self._send_checked(job)

    # The record's send before the `is None` check was written.
    def _send_unchecked(self, job):
        layout = job.layout
        return self.send_kvcache(
            job.peer,
            job.pages,
            layout.region_ptrs,
            layout.device,
            dst_mem_kind=layout.dest_kind,  # want: SGL002 "may be None"
        )

    # Today's shape: check, fail with a clear error, then send.
    def _send_checked(self, job):
        layout = job.layout
        if layout.dest_kind is None:
            raise RuntimeError("Missing NIXL destination KV memory kind")
        return self.send_kvcache(
            job.peer,
            job.pages,
            layout.region_ptrs,
            layout.device,
            dst_mem_kind=layout.dest_kind,
        )

    # The callee checks its parameter before every use, so the call is safe.
    def _send_callee_checked(self, job, layout: PeerLayout):
        return self.write_checked(job.peer, job.pages, dst_mem_kind=layout.dest_kind)

    def _send_positional(self, job, layout: PeerLayout):
        return self.write_region(job.peer, job.pages, layout.dest_kind)  # want: SGL002 "may be None"

    def _send_positional_literal(self, job):
        return self.write_region(job.peer, job.pages, "DRAM")

    def _send_alias(self, job, layout: PeerLayout):
        kind = layout.dest_kind
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)  # want: SGL002 "may be None"

    def _send_alias_checked(self, job, layout: PeerLayout):
        kind = layout.dest_kind
        if kind is None:
            return job.fail("peer registered without a destination kind")
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)

    def _send_checked_through_alias(self, job, layout: PeerLayout):
        kind = layout.dest_kind
        assert kind is not None, "registration left no destination kind"
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=layout.dest_kind)

    def _send_ternary(self, job):
        kind = self.device_kind if job.ready else None
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)  # want: SGL002 "may be None"

    def _send_ternary_literals(self, job):
        kind = "DRAM" if job.to_host else "VRAM"
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)

    def _send_override(self, job):
        kind = self.kind_overrides.get(job.peer)
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)  # want: SGL002 "may be None"

    def _send_override_defaulted(self, job):
        kind = self.kind_overrides.get(job.peer)
        if kind is None:
            kind = self.device_kind
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)

    def _send_override_validated(self, job):
        kind = self.kind_overrides.get(job.peer)
        if kind not in ("VRAM", "DRAM"):
            raise ValueError("unknown memory kind %r" % kind)
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)

    def _send_override_noted(self, job):
        kind = self.kind_overrides.get(job.peer)
        if kind not in ("VRAM", "DRAM"):
            job.note("unusual memory kind %r" % kind)
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)  # want: SGL002 "may be None"

    def _send_host(self, job):
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=self.host_kind)  # want: SGL002 "may be None"

    def _send_host_checked(self, job):
        if self.host_kind is None:
            return job.fail("host kind not adopted yet")
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=self.host_kind)

    def _send_one_branch(self, job, layout: PeerLayout, allow_host):
        kind = None
        if allow_host:
            kind = single_kind(layout.region_kinds)
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)  # want: SGL002 "may be None"

    def _send_both_branches(self, job, layout: PeerLayout, allow_host):
        kind = None
        if allow_host:
            kind = single_kind(layout.region_kinds)
        else:
            kind = self.device_kind
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)

    def _send_try_exits(self, job, layout: PeerLayout):
        kind = None
        try:
            kind = single_kind(layout.region_kinds)
        except NotImplementedError:
            return self._send_mixed(job, layout)
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)

    def _send_try_swallows(self, job, layout: PeerLayout):
        kind = None
        try:
            kind = single_kind(layout.region_kinds)
        except NotImplementedError:
            job.note("mixed kinds; sending anyway")
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)  # want: SGL002 "may be None"

    def _send_resolved(self, job, layout: PeerLayout):
        kind = single_kind(layout.region_kinds)
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)

    def _send_maybe(self, job, layout: PeerLayout):
        kind = kind_or_none(layout.region_kinds)
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)  # want: SGL002 "may be None"

    def _send_param(self, job, kind=None):
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)  # want: SGL002 "may be None"

    def _send_param_default(self, job, kind="VRAM"):
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind=kind)

    def _send_mixed(self, job, layout: PeerLayout):
        return self.send_kvcache_mixed(job.peer, job.pages, dst_mem_kinds=layout.dest_kinds)  # want: SGL002 "may be None"

    def _send_mixed_regions(self, job, layout: PeerLayout):
        return self.send_kvcache_mixed(job.peer, job.pages, dst_mem_kinds=layout.region_kinds)

    def _send_literal(self, job):
        return self.send_kvcache(job.peer, job.pages, [], 0, dst_mem_kind="VRAM")
