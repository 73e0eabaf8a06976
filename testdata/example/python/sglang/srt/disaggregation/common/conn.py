"""What the backends share: connections to the decode side, request status."""

import threading

from sglang.srt.disaggregation.base.conn import BaseKVManager


class CommonKVManager(BaseKVManager):
    def __init__(self, args, ctx):
        self.kv_args = args
        self.ctx = ctx
        self.request_status = {}
        self._socket_cache = {}
        self._send_locks = {}
        self._socket_lock = threading.Lock()

    def _connect(self, endpoint):
        with self._socket_lock:
            sock = self._socket_cache.get(endpoint)
            if sock is not None:
                return sock
            sock = self.ctx.socket(endpoint)
            self._socket_cache[endpoint] = sock
            self._send_locks.setdefault(endpoint, threading.Lock())
            return sock

    # Silent: _connect adds the lock for every socket it hands out.
    def _send_multipart_locked(self, endpoint, parts):
        sock = self._connect(endpoint)
        with self._send_locks[endpoint]:
            sock.send_multipart(parts)
