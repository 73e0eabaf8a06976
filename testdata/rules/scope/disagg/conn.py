"""A transfer backend: KV classes that still fire, one per KV rule, beside
the look-alikes in managers/ that must stay silent."""

import threading
from typing import Optional

from disagg.base import BaseKVManager, BaseKVSender


class PeerInfo:
    def __init__(self, name):
        self.name = name
        self.dst_mem_kind: Optional[str] = None
        self.dst_ptrs = []


class FastKVManager(BaseKVManager):
    def __init__(self, args, engine, jobs):
        self.kv_args = args
        self.engine = engine
        self.jobs = jobs
        self.kv_mem_descs = []
        self.peers = {}
        self._socket_locks = {}
        self._register_local_buffers()
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def _register_local_buffers(self):
        for ptr in self.kv_args.kv_data_ptrs:
            self.kv_mem_descs.append(self.engine.register_memory(ptr))

    def _connect(self, endpoint):
        self._socket_locks.setdefault(endpoint, threading.Lock())
        return self.engine.socket(endpoint)

    def add_peer(self, msg):
        info = PeerInfo(msg.name)
        self.peers[msg.name] = info  # want: SGL003 "published before it is fully initialised"
        info.dst_mem_kind = msg.kind
        info.dst_ptrs = msg.ptrs

    def send_kvcache(self, peer, pages):
        first = self.kv_mem_descs[0]  # want: SGL001 "may be empty"
        return self.engine.write(first, peer.dst_ptrs, pages, dst_mem_kind=peer.dst_mem_kind)  # want: SGL002 "may be None"

    def _send_notify(self, endpoint, parts):
        sock = self._connect(endpoint)
        with self._socket_locks[endpoint]:
            sock.send(parts)

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            try:
                peer = self.peers[job.peer]  # want: SGL004 "KeyError"
                self.send_kvcache(peer, job.pages)
            except Exception as exc:
                raise RuntimeError(f"transfer worker stopped: {exc}")


class FastKVSender(BaseKVSender):
    def __init__(self, mgr: FastKVManager, room):
        self.kv_mgr = mgr
        self.room = room

    def send(self, pages):
        self.kv_mgr.jobs.put((self.room, pages))
