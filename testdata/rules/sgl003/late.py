"""Initialisation after the publish that the stored name alone does not
show: through another name for the same object, in a second loop over
the same peers, or by filling a container the object holds."""

import threading

from kvbase import BaseKVManager


class Peer:
    def __init__(self, name):
        self.name = name
        self.kind = None
        self.handles = []
        self.segments = {}


class LateDirectory(BaseKVManager):
    def __init__(self, agent, jobs):
        self.agent = agent
        self.jobs = jobs
        self.peers = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def _prepare(self, peer):
        peer.kind = self.agent.kind_of(peer.name)

    def add_alias_late(self, info):
        peer = info
        self.peers[peer.name] = peer  # want: SGL003 "`info.kind` is still assigned \(`info` names the same object there\)"
        info.kind = self.agent.kind_of(info.name)

    def add_alias_first(self, info):
        peer = info
        info.kind = self.agent.kind_of(info.name)
        self.peers[peer.name] = peer

    def add_alias_of_another(self, info, spare):
        peer = spare
        self.peers[info.name] = info
        peer.kind = self.agent.kind_of(peer.name)

    def add_two_loops(self, infos):
        for info in infos:
            self.peers[info.name] = info  # want: SGL003 "in a later loop over `infos`"
        for info in infos:
            self._prepare(info)

    def add_two_loops_prepared_first(self, infos):
        for info in infos:
            self._prepare(info)
        for info in infos:
            self.peers[info.name] = info

    def add_then_prepare_table(self, infos):
        for info in infos:
            self.peers[info.name] = info  # want: SGL003 "the table's values"
        for peer in self.peers.values():
            self._prepare(peer)

    def add_then_log_table(self, infos):
        for info in infos:
            self.peers[info.name] = info
        for peer in self.peers.values():
            self.agent.log(peer.name)

    def add_two_loops_other_peers(self, infos, others):
        for info in infos:
            self.peers[info.name] = info
        for info in others:
            self._prepare(info)

    def add_handles_late(self, info, handle):
        self.peers[info.name] = info  # want: SGL003 "`info.handles.append\(handle\)` still fills `handles`"
        info.handles.append(handle)

    def add_handles_first(self, info, handle):
        info.handles.append(handle)
        self.peers[info.name] = info

    def add_segments_late(self, info, segments):
        self.peers[info.name] = info  # want: SGL003 "still fills `segments`"
        info.segments.update(segments)

    def add_then_read_segments(self, info, segments):
        info.segments.update(segments)
        self.peers[info.name] = info
        self.agent.log(info.segments.get("kv"))

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            peer = self.peers.get(job.peer)
            if peer is None or peer.kind is None:
                job.fail("peer not ready")
                continue
            self.agent.post(job.pages, peer.kind, peer.handles)
