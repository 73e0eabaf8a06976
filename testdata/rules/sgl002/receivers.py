"""Receivers whose class the send does not name: read from a table whose
items have a known class, or of unknown class, with fields of the same
name declared elsewhere."""

import dataclasses
import threading
from typing import Dict, List, Optional

from kvbase import BaseKVManager


@dataclasses.dataclass
class RemoteRegion:
    name: str
    region_ptrs: List[int]
    dst_kind: Optional[str] = None  # filled by a preparation step


@dataclasses.dataclass
class XferSegment:
    # Unrelated to regions: a plain kind, and none of their other fields.
    start: int
    end: int
    dst_kind: str


@dataclasses.dataclass
class PeerRecord:
    addr: str
    peer_kind: Optional[str] = None


@dataclasses.dataclass
class PeerStub:
    # Has every field a record has, but its kind is always set: by name
    # alone the two disagree.
    addr: str
    peer_kind: str = "DRAM"


class RegionWriter(BaseKVManager):
    def __init__(self, agent, jobs):
        self.agent = agent
        self.jobs = jobs
        self.records = {}
        self.stubs: Dict[str, PeerStub] = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def add_record(self, name, record: PeerRecord):
        self.records[name] = record

    def add_stub(self, name, stub):
        self.stubs[name] = stub

    def write(self, peer, pages, dst_mem_kind):
        return self.agent.post(peer, pages, dst_mem_kind)

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            try:
                self._send_region(job)
            except Exception as exc:
                job.fail(str(exc))

    def _send_region(self, job):
        region = job.region
        return self.write(job.peer, region.region_ptrs, dst_mem_kind=region.dst_kind)  # want: SGL002 "may be None"

    def _send_region_checked(self, job):
        region = job.region
        if region.dst_kind is None:
            raise RuntimeError("region not prepared")
        return self.write(job.peer, region.region_ptrs, dst_mem_kind=region.dst_kind)

    def _send_record(self, job):
        record = self.records[job.peer]
        return self.write(record.addr, job.pages, dst_mem_kind=record.peer_kind)  # want: SGL002 "`PeerRecord`"

    def _send_record_checked(self, job):
        record = self.records[job.peer]
        if record.peer_kind is None:
            raise RuntimeError("peer kind unknown")
        return self.write(record.addr, job.pages, dst_mem_kind=record.peer_kind)

    def _send_stub(self, job):
        stub = self.stubs[job.peer]
        return self.write(stub.addr, job.pages, dst_mem_kind=stub.peer_kind)

    def _send_untyped_peer(self, job):
        # A receiver of unknown class whose fields both classes have: by
        # name they disagree, and the rule stays silent.
        peer = job.peer_info
        return self.write(peer.addr, job.pages, dst_mem_kind=peer.peer_kind)
