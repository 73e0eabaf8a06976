"""Senders the prefill scheduler calls for every request: `send` and
`poll` must report a failure as the request's status, never raise it."""
from nixl_like import make_agent

from kvbase import BaseKVManager, BaseKVSender, KVPoll


class Manager(BaseKVManager):
    def __init__(self):
        self.agent = make_agent("prefill")
        self.mode = "prefill"
        self.transfer_infos = {}
        self.status = {}

    def add_info(self, room, info):
        self.transfer_infos[room] = info

    def record_failure(self, room, reason):
        self.status[room] = reason

    def update_status(self, room, status):
        self.status[room] = status

    def check_state(self, handle):
        return self.agent.check(handle)

    def retire(self, room, handle):
        try:
            self.agent.release(handle)
        except Exception:
            self.update_status(room, KVPoll.Failed)

    def add_transfer_request(self, room, pages, is_last, aux=None):
        assert self.mode == "prefill"
        assert not is_last or aux is not None
        infos = self.transfer_infos.get(room)
        if not infos:
            raise RuntimeError(f"No transfer info found for room={room}")  # want: SGL006 "escapes send entry `Manager.add_transfer_request`: its caller `Sender.send`, which the scheduler calls"
        handles = []
        for info in infos:
            handles.append(self._post(info, pages))
        return handles

    def _post(self, info, pages):
        handle = self.agent.prepare(info.peer, pages)
        self.agent.release(handle)
        return handle


class Sender(BaseKVSender):
    def __init__(self, mgr: Manager, room):
        self.kv_mgr = mgr
        self.room = room
        self.handles = []

    def send(self, pages, is_last):
        self.handles.extend(self.kv_mgr.add_transfer_request(self.room, pages, is_last))

    def poll(self):
        states = [self.kv_mgr.check_state(h) for h in self.handles]
        if any(s == "ERR" for s in states):
            raise Exception("transfer encountered an error")  # want: SGL006 "escapes scheduler call `Sender.poll`: the scheduler calls it from its event loop"
        return KVPoll.Success

    def failure_exception(self):
        raise RuntimeError(f"request {self.room} failed")


class FailingSender(Sender):
    def poll(self):
        states = [self.kv_mgr.check_state(h) for h in self.handles]
        if any(s == "ERR" for s in states):
            self.kv_mgr.record_failure(self.room, "transfer encountered an error")
            return KVPoll.Failed
        return KVPoll.Success


class CheckedManager(Manager):
    def add_transfer_request(self, room, pages, is_last, aux=None):
        infos = self.transfer_infos.get(room)
        if not infos:
            raise RuntimeError(f"No transfer info found for room={room}")
        return [self._post(info, pages) for info in infos]


class CatchingSender(BaseKVSender):
    def __init__(self, mgr: CheckedManager, room):
        self.kv_mgr = mgr
        self.room = room

    def send(self, pages, is_last):
        try:
            self.kv_mgr.add_transfer_request(self.room, pages, is_last)
        except Exception as e:
            self.kv_mgr.record_failure(self.room, str(e))
            self.kv_mgr.update_status(self.room, KVPoll.Failed)


class UncalledManager(BaseKVManager):
    """A send entry no sender calls: who calls it, and whether that
    catches, is unknown, so it is not judged."""

    def __init__(self):
        self.transfer_infos = {}

    def add_info(self, room, info):
        self.transfer_infos[room] = info

    def add_transfer_request(self, room, pages):
        infos = self.transfer_infos.get(room)
        if not infos:
            raise RuntimeError(f"No transfer info found for room={room}")
        return infos


class TransportSender(Sender):
    """The transport call the manager guards in `retire` raises here too."""

    def send(self, pages, is_last):
        handle = self.kv_mgr.agent.prepare(self.room, pages)
        self.kv_mgr.agent.release(handle)  # want: SGL006 "`self.kv_mgr.agent.release\(handle\)`, which this project guards elsewhere"


class CarefulTransportSender(Sender):
    def send(self, pages, is_last):
        handle = self.kv_mgr.agent.prepare(self.room, pages)
        try:
            self.kv_mgr.agent.release(handle)
        except Exception as e:
            self.kv_mgr.record_failure(self.room, str(e))
            self.kv_mgr.update_status(self.room, KVPoll.Failed)
