"""Record a1f0c0de0000000b's validationCode says `mgr.ring_descs` must be
non-empty and `peer.dst_mem_kind` not None: its raise site checks the
first. Every other use of that state on a KV path that fails the same way
without the check is the record's failure waiting elsewhere."""

import threading
from dataclasses import dataclass
from typing import Optional

from kvbase import BaseKVManager, BaseKVSender


@dataclass
class PeerInfo:
    name: str
    dst_mem_kind: Optional[str] = None


@dataclass
class FixedPeer:
    name: str
    dst_mem_kind: str = "cuda"


class RingManager(BaseKVManager):
    def __init__(self, engine, jobs, depth):
        self.engine = engine
        self.jobs = jobs
        self.ring_descs = []
        self.layers = list(range(depth))  # never empty: nothing to check
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def attach(self, descs):
        self.ring_descs.extend(descs)

    # The record's raise site.
    def _ring(self):
        descs = self.ring_descs
        if not descs:
            raise RuntimeError("Ring descriptors are empty on this rank")
        return descs

    def send_head(self, pages):
        return self.engine.post(self.ring_descs[0], pages)  # want: SGL010 "`self.ring_descs\[0\]` raises IndexError when `self.ring_descs` is empty"

    def send_head_checked(self, pages):
        if not self.ring_descs:
            return None
        return self.engine.post(self.ring_descs[0], pages)

    def send_head_or_none(self, pages):
        head = self.ring_descs[0] if self.ring_descs else None
        return self.engine.post(head, pages)

    def send_tail_slice(self, pages):
        return self.engine.post(self.ring_descs[-1:], pages)

    def send_from_ring(self, pages):
        return self.engine.post(self._ring()[0], pages)  # want: SGL010 "from `RingManager._ring` can escape send entry `RingManager.send_from_ring`"

    def send_first_layer(self, pages):
        return self.engine.post(self.layers[0], pages)

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            try:
                self.engine.post(self.ring_descs[0], job.pages)
            except Exception as e:
                job.fail(str(e))


class RingSender(BaseKVSender):
    def __init__(self, mgr: RingManager, peer: PeerInfo, fixed: FixedPeer):
        self.kv_mgr = mgr
        self.peer = peer
        self.fixed = fixed

    def send(self, pages):
        return self.kv_mgr.engine.post(pages, kind=self.peer.dst_mem_kind.upper())  # want: SGL010 "raises AttributeError when `self.peer.dst_mem_kind` is None.*scheduler's event loop fails"

    def send_metadata(self, pages):
        if self.peer.dst_mem_kind is None:
            return None
        return self.kv_mgr.engine.post(pages, kind=self.peer.dst_mem_kind.upper())

    def poll(self):
        return self.peer.name.upper()

    def abort(self):
        return self.fixed.dst_mem_kind.upper()
