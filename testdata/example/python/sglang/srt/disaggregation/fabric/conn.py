"""A backend with a transfer thread: decode peers register over the wire,
and the thread moves each queued chunk to its peer."""

import threading
from typing import Optional

from sglang.srt.disaggregation.base.conn import BaseKVSender
from sglang.srt.disaggregation.common.conn import CommonKVManager


class PeerRegistration:
    def __init__(self, session, dst_ptrs):
        self.session = session
        self.dst_ptrs = dst_ptrs
        self.dst_mem_kind: Optional[str] = None
        self.xfer_plan: Optional[dict] = None


class FabricKVManager(CommonKVManager):
    def __init__(self, args, ctx, agent, queue):
        super().__init__(args, ctx)
        self.agent = agent
        self.queue = queue
        self.decode_kv_args_table = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def _prepare_payload(self, info):
        info.dst_mem_kind = self.agent.query_kind(info.dst_ptrs)
        info.xfer_plan = self.agent.plan(info.dst_ptrs)

    def _add_remote_peer(self, msg):
        info = PeerRegistration(msg.session, msg.dst_ptrs)
        self.decode_kv_args_table[msg.session] = info
        self._prepare_payload(info)

    # Silent: prepared first, published last.
    def _add_local_peer(self, msg):
        info = PeerRegistration(msg.session, msg.dst_ptrs)
        self._prepare_payload(info)
        self.decode_kv_args_table[msg.session] = info

    def _plan_for(self, info):
        if info.xfer_plan is None:
            raise RuntimeError(f"No transfer plan for peer {info.session}")
        return info.xfer_plan

    def _send_chunk(self, chunk):
        info = self.decode_kv_args_table.get(chunk.session)
        if info is None:
            chunk.fail("peer is not registered")
            return
        self.agent.post(chunk.pages, info.dst_ptrs, dst_mem_kind=info.dst_mem_kind)

    # Silent: checks the kind before the send.
    def _send_chunk_checked(self, chunk):
        info = self.decode_kv_args_table.get(chunk.session)
        if info is None or info.dst_mem_kind is None:
            chunk.fail("peer is not ready")
            return
        self.agent.post(chunk.pages, info.dst_ptrs, dst_mem_kind=info.dst_mem_kind)

    def send_aux(self, chunk):
        info = self.decode_kv_args_table.get(chunk.session)
        if info is None:
            return None
        return self.agent.post_aux(self._plan_for(info), chunk.aux_index)

    def transfer_worker(self):
        while True:
            chunk = self.queue.get()
            try:
                info = self.decode_kv_args_table[chunk.session]
                if chunk.checked:
                    self._send_chunk_checked(chunk)
                else:
                    self._send_chunk(chunk)
                self.agent.notify(info.session, chunk.room)
            except Exception as exc:
                raise RuntimeError(f"transfer worker stopped: {exc}")


class FabricKVSender(BaseKVSender):
    def __init__(self, mgr: FabricKVManager, room):
        self.kv_mgr = mgr
        self.room = room

    def send(self, kv_indices):
        self.kv_mgr.queue.put((self.room, kv_indices))

    def poll(self):
        if self.kv_mgr.agent.state(self.room) == "ERR":
            raise RuntimeError(f"fabric transfer of room {self.room} failed")
        return "ok"


# Silent: a failed transfer is this request's status.
class FabricKVSenderChecked(FabricKVSender):
    def poll(self):
        if self.kv_mgr.agent.state(self.room) == "ERR":
            self.kv_mgr.request_status[self.room] = "failed"
            return "failed"
        return "ok"
