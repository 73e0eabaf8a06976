"""Record a1f0c0de0000000a: an error class whose __str__ builds the message,
raised by a sender's poll (escapes into the scheduler), by its
failure_exception (the scheduler asks for it: silent), and by a send entry
whose only caller fails the room in a handler (silent)."""

from kvbase import BaseKVManager, BaseKVSender


class KVPoll:
    Failed = 0
    Success = 4


class RoomTransferError(Exception):
    def __init__(self, room, reason):
        super().__init__(room, reason)
        self.room = room
        self.reason = reason

    def __str__(self):
        return f"RoomTransferError(room={self.room}): {self.reason}"


class RoomManager(BaseKVManager):
    def __init__(self):
        self.failures = {}
        self.statuses = {}
        self.transfer_infos = {}

    def add_transfer_request(self, room, pages):
        infos = self.transfer_infos.get(room)
        if not infos:
            raise RoomTransferError(room, "no transfer info")
        return [(info, pages) for info in infos]

    def record_failure(self, room, reason):
        self.failures[room] = reason

    def update_status(self, room, status):
        self.statuses[room] = status


class RoomSender(BaseKVSender):
    def __init__(self, mgr: RoomManager, room):
        self.kv_mgr = mgr
        self.room = room

    def send(self, pages):
        try:
            self.kv_mgr.add_transfer_request(self.room, pages)
        except RoomTransferError as e:
            self.kv_mgr.record_failure(self.room, str(e))
            self.kv_mgr.update_status(self.room, KVPoll.Failed)

    def poll(self):
        reason = self.kv_mgr.failures.get(self.room)
        if reason is not None:
            raise RoomTransferError(self.room, reason)  # want: SGL010 "a1f0c0de0000000a"
        return KVPoll.Success

    def failure_exception(self):
        raise RoomTransferError(self.room, self.kv_mgr.failures.get(self.room, "unknown"))
