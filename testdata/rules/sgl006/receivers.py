"""Receivers the decode scheduler calls: a prefill address that was never
fetched must fail the request, however the lookup is written."""
from kvbase import BaseKVManager, BaseKVReceiver, KVPoll


class DecodeManager(BaseKVManager):
    def __init__(self):
        self.prefill_info = {}
        self.status = {}

    def add_prefill(self, addr, info):
        self.prefill_info[addr] = info

    def record_failure(self, room, reason):
        self.status[room] = reason

    def update_status(self, room, status):
        self.status[room] = status


class GetRaisingReceiver(BaseKVReceiver):
    def __init__(self, mgr: DecodeManager, addr, room):
        self.kv_mgr = mgr
        self.addr = addr
        self.room = room

    def init(self, rank):
        info = self.kv_mgr.prefill_info.get(self.addr)
        if info is None:
            raise KeyError(self.addr)  # want: SGL006 "`raise KeyError\(self.addr\)`"
        self.info = info


class AssertingReceiver(GetRaisingReceiver):
    def init(self, rank):
        assert self.addr in self.kv_mgr.prefill_info  # want: SGL006 "`assert self.addr in self.kv_mgr.prefill_info`"
        self.info = self.kv_mgr.prefill_info[self.addr]


class FailingReceiver(GetRaisingReceiver):
    def init(self, rank):
        info = self.kv_mgr.prefill_info.get(self.addr)
        if info is None:
            self.kv_mgr.record_failure(self.room, f"no prefill info for {self.addr}")
            self.kv_mgr.update_status(self.room, KVPoll.Failed)
            return
        self.info = info
