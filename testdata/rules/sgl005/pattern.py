"""Handlers in the shape of a record's tryCatchPattern: one that deals with
the error it recognises and lets the loop go on confines it; the same
handler followed by a bare raise does not. (One that raises again only on
some paths counts as confining: a documented limit.)"""
import threading

from kvbase import BaseKVManager


class _PeerManager(BaseKVManager):
    def __init__(self, agent, queue):
        self.agent = agent
        self.queue = queue
        self.transfer_infos = {}
        self.stale = set()
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def add_request(self, room, info):
        self.transfer_infos[room] = info

    def mark_peer_stale(self, peer):
        self.stale.add(peer)

    def _send(self, chunk):
        if chunk.peer in self.stale:
            raise RuntimeError("Missing destination memory kind")
        self.agent.post(chunk)


class PatternManager(_PeerManager):
    def transfer_worker(self):
        while True:
            chunk = self.queue.get()
            try:
                self._send(chunk)
            except RuntimeError as e:
                if "Missing destination" in str(e):
                    self.mark_peer_stale(chunk.peer)


class PatternThenRaiseManager(_PeerManager):
    def transfer_worker(self):
        while True:
            chunk = self.queue.get()
            try:
                self._send(chunk)
            except RuntimeError as e:  # want: SGL005 "this handler raises again"
                if "Missing destination" in str(e):
                    self.mark_peer_stale(chunk.peer)
                raise
