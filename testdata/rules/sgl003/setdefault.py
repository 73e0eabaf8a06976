"""Publication through setdefault and through the table entry itself: the
peer is visible to the transfer thread from the store on, whatever the
syntax of the store."""

import threading

from kvbase import BaseKVManager


class Peer:
    def __init__(self, name):
        self.name = name
        self.kind = None


class Registry(BaseKVManager):
    def __init__(self, agent, jobs):
        self.agent = agent
        self.jobs = jobs
        self.peers = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def _prepare(self, peer):
        peer.kind = self.agent.kind_of(peer.name)

    def add_by_setdefault(self, msg):
        peer = Peer(msg.name)
        self.peers.setdefault(msg.name, peer)  # want: SGL003 "`peer` is published before it is fully initialised"
        self._prepare(peer)

    def add_by_setdefault_ready(self, msg):
        peer = Peer(msg.name)
        self._prepare(peer)
        self.peers.setdefault(msg.name, peer)

    def add_fresh_by_setdefault(self, msg):
        peer = self.peers.setdefault(msg.name, Peer(msg.name))  # want: SGL003 "`peer` is published"
        peer.kind = self.agent.kind_of(msg.name)

    def add_fresh_entry(self, msg):
        self.peers[msg.name] = Peer(msg.name)  # want: SGL003 "`self.peers\[msg.name\]` is published .* `self.peers\[msg.name\].kind` is still assigned"
        self.peers[msg.name].kind = self.agent.kind_of(msg.name)

    def add_fresh_entry_other_key(self, msg, other):
        self.peers[msg.name] = Peer(msg.name)
        self.peers[other].kind = self.agent.kind_of(other)

    def add_fresh_entry_ready(self, msg):
        peer = Peer(msg.name)
        peer.kind = self.agent.kind_of(msg.name)
        self.peers[msg.name] = peer

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            peer = self.peers.get(job.peer)
            if peer is None or peer.kind is None:
                job.fail("peer not ready")
                continue
            self.agent.post(job.pages, peer.kind)


class HelperRegistry(Registry):
    def _publish(self, name, peer):
        self.peers[name] = peer

    def add_through_helper(self, msg):
        peer = Peer(msg.name)
        self._publish(msg.name, peer)  # want: SGL003 "`peer` is published before it is fully initialised: `HelperRegistry._publish` puts it into `self.peers`"
        self._prepare(peer)

    def add_through_helper_ready(self, msg):
        peer = Peer(msg.name)
        self._prepare(peer)
        self._publish(msg.name, peer)


class RoomRegistry(Registry):
    """A table of tables: each room's entry is a dict filled as the
    decode ranks register, by design. Filling it is not initialising a
    half-built peer."""

    def __init__(self, agent, jobs):
        super().__init__(agent, jobs)
        self.rooms = {}

    def add_info(self, room, rank, info):
        infos = self.rooms.setdefault(room, {})
        infos[rank] = info

    def send_room(self, room, pages):
        for info in self.rooms.get(room, {}).values():
            self.agent.post(pages, info)
