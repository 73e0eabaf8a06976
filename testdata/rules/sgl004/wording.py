"""What SGL004's messages say about the table and the thread: a table of
counts per room is not a table of peers; a check on another table is named
for what it is; a thread that reads a socket does not leave requests
queued; the places that remove keys are shown, since they are the race."""
import threading

from kvbase import BaseKVManager, BaseKVSender


class CountingManager(BaseKVManager):
    def __init__(self, socket, replies):
        self.socket = socket
        self.replies = replies
        self.remaining = {}
        self.arrived = {}
        threading.Thread(target=self.listen, daemon=True).start()
        threading.Thread(target=self.drain, daemon=True).start()

    def expect(self, room, n):
        self.remaining[room] = n

    def on_bootstrap(self, room):
        self.arrived[room] = 0

    def listen(self):
        while True:
            room = self.socket.recv_pyobj()
            if room in self.arrived:
                left = self.remaining[room] - 1  # want: SGL004 "the check at line 28 is of `self.arrived`, not of this table.*KV thread `CountingManager.listen` and no later message on its socket is handled"

    def drain(self):
        while True:
            room = self.replies.get()
            if room in self.remaining:
                left = self.remaining[room] - 1
                self.remaining[room] = left


class CountingSender(BaseKVSender):
    def __init__(self, mgr: CountingManager, room):
        self.kv_mgr = mgr
        self.room = room

    def abort(self):
        self.kv_mgr.remaining.pop(self.room, None)
        self.kv_mgr.arrived.pop(self.room, None)
