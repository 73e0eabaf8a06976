"""A backend whose send posts one transfer per chunk; the decode side
counts the chunks' completions before it calls the request done."""
from kvbase import BaseKVManager, BaseKVSender, KVPoll


class ChunkManager(BaseKVManager):
    def __init__(self, engine):
        self.engine = engine
        self.status = {}

    def update_status(self, room, status):
        self.status[room] = status

    def post(self, room, kv_indices, chunk_id, is_last):
        return self.engine.write(room, kv_indices, notify=f"{room}_{chunk_id}_{int(is_last)}")


class ChunkSender(BaseKVSender):
    def __init__(self, mgr: ChunkManager, room, num_pages):
        self.kv_mgr = mgr
        self.room = room
        self.num_pages = num_pages
        self.sent = 0
        self.chunk_id = 0

    # Flagged: the indices reach the engine unchanged and untested, while
    # the other backend (guarded.py) shows they can arrive empty.
    def send(self, kv_indices, state_indices=None):
        self.sent += len(kv_indices)
        self.kv_mgr.post(self.room, kv_indices, self.chunk_id, self.sent == self.num_pages)  # want: SGL007 "`kv_indices` can arrive empty \(`GuardedManager.add_transfer_request` tests it for that, line 15\), and here it goes on to the transport \(`self.engine.write"
        self.chunk_id += 1


class CheckedChunkSender(BaseKVSender):
    def __init__(self, mgr: ChunkManager, room, num_pages):
        self.kv_mgr = mgr
        self.room = room
        self.num_pages = num_pages
        self.sent = 0

    # Silent: an empty chunk is refused before the transport.
    def send(self, kv_indices, state_indices=None):
        if not len(kv_indices):
            return
        self.sent += len(kv_indices)
        self.kv_mgr.post(self.room, kv_indices, 0, self.sent == self.num_pages)


class FakeSender(BaseKVSender):
    def send(self, kv_indices, state_indices=None):
        pass


class WriterSender(BaseKVSender):
    """The transport call sits in an override: send's call of _write is
    virtual, so the chunk's route is judged in the override."""

    def __init__(self, engine, room):
        self.engine = engine
        self.room = room

    def send(self, kv_indices, state_indices=None):
        self._write(self.room, kv_indices)

    def _write(self, room, kv_indices):
        raise NotImplementedError


class EngineWriterSender(WriterSender):
    # Flagged: untested on its way to the engine.
    def _write(self, room, kv_indices):
        return self.engine.write(room, kv_indices)  # want: SGL007 "`kv_indices` can arrive empty"


class CheckedWriterSender(WriterSender):
    # Silent: an empty chunk is refused before the engine.
    def _write(self, room, kv_indices):
        if not len(kv_indices):
            return None
        return self.engine.write(room, kv_indices)
