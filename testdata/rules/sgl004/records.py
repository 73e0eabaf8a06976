"""A request's id carried from record to record: the caller adds the key
under one record's field (`chunk.room`) and passes another record's field
of the same name (`info.room`) to the callee that looks it up. The check
counts; a field of another name does not."""

import queue
import threading

from kvbase import BaseKVManager


class RoomKVManager(BaseKVManager):
    def __init__(self):
        self.status = {}
        self.infos = {}
        self.jobs = queue.Queue()
        threading.Thread(target=self.transfer_worker).start()

    def register(self, room, info):
        self.infos[room] = info
        self.status[room] = 0

    def _report(self, room):
        self.link.send(self.status[room])

    def _report_peer(self, peer):
        self.link.send(self.status[peer])  # want: SGL004 "`self.status\[peer\]` raises KeyError"

    def transfer_worker(self):
        while True:
            chunk = self.jobs.get()
            info = self.infos.get(chunk.room)
            if info is None:
                continue
            if not self.link.push(info, chunk):
                self.status[chunk.room] = -1
                self._report(info.room)
                self._report_peer(info.peer)
                continue
            self.status[info.room] = 1
            self._report(info.room)
            self._report_peer(info.room)
