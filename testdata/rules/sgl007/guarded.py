"""A second backend, which refuses an empty chunk before it posts: the
project says a chunk's kv_indices can arrive empty."""
from kvbase import BaseKVManager, BaseKVSender, KVPoll


class GuardedManager(BaseKVManager):
    def __init__(self, engine):
        self.engine = engine
        self.status = {}

    def update_status(self, room, status):
        self.status[room] = status

    def add_transfer_request(self, room, kv_indices, is_last):
        if len(kv_indices) == 0:
            if is_last:
                self.update_status(room, KVPoll.Success)
            return
        self.engine.write(room, kv_indices)


class GuardedSender(BaseKVSender):
    def __init__(self, mgr: GuardedManager, room):
        self.kv_mgr = mgr
        self.room = room

    # Silent: the manager tests the length before the transport.
    def send(self, kv_indices, state_indices=None):
        self.kv_mgr.add_transfer_request(self.room, kv_indices, True)
