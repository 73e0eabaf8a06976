"""Socket and lock tables: a callee that always adds the key before it
returns makes the caller's lookup safe; one that adds it only on some paths
does not."""

import threading

from kvbase import BaseKVManager


class SocketKVManager(BaseKVManager):
    def __init__(self, ctx):
        self.ctx = ctx
        self._socket_cache = {}
        self._socket_locks = {}
        self._socket_lock = threading.Lock()

    def _connect(self, endpoint):
        self._socket_locks.setdefault(endpoint, threading.Lock())
        if endpoint not in self._socket_cache:
            self._socket_cache[endpoint] = self.ctx.socket(endpoint)
        return self._socket_cache[endpoint]

    def _connect_lazily(self, endpoint, eager):
        if eager:
            self._socket_locks[endpoint] = threading.Lock()
        return self.ctx.socket(endpoint)

    def _send_multipart_locked(self, endpoint, parts):
        sock = self._connect(endpoint)
        with self._socket_locks[endpoint]:
            sock.send_multipart(parts)

    def _send_multipart_maybe(self, endpoint, parts, eager):
        sock = self._connect_lazily(endpoint, eager)
        with self._socket_locks[endpoint]:  # want: SGL004 "KeyError"
            sock.send_multipart(parts)

    def _connect_guarded(self, endpoint):
        with self._socket_lock:
            sock = self._socket_cache.get(endpoint)
            if sock is not None:
                self._socket_locks.setdefault(endpoint, threading.Lock())
                return sock
            sock = self.ctx.socket(endpoint)
            self._socket_cache[endpoint] = sock
            self._socket_locks[endpoint] = threading.Lock()
            return sock

    def _send_multipart_guarded(self, endpoint, parts):
        sock = self._connect_guarded(endpoint)
        with self._socket_locks[endpoint]:
            sock.send_multipart(parts)


class CachedSocketKVManager(BaseKVManager):
    """The socket cache and the send locks are kept in step: a key enters
    the cache only where its lock is added, and no lock is ever removed, so
    a cached socket has a lock even on the early return."""

    def __init__(self, ctx):
        self.ctx = ctx
        self._socket_cache = {}
        self._send_locks = {}
        self._socket_lock = threading.Lock()

    def _connect(self, endpoint):
        with self._socket_lock:
            sock = self._socket_cache.get(endpoint)
            if sock is not None:
                if not sock.closed:
                    return sock
                self._socket_cache.pop(endpoint, None)
            sock = self.ctx.socket(endpoint)
            self._socket_cache[endpoint] = sock
            self._send_locks.setdefault(endpoint, threading.Lock())
            return sock

    def _send_multipart_locked(self, endpoint, parts):
        sock = self._connect(endpoint)
        with self._send_locks[endpoint]:
            sock.send_multipart(parts)


class DroppingSocketKVManager(BaseKVManager):
    """Twin: a lock can be dropped while its socket stays cached, so the
    cache no longer implies the lock."""

    def __init__(self, ctx):
        self.ctx = ctx
        self._socket_cache = {}
        self._send_locks = {}

    def _connect(self, endpoint):
        sock = self._socket_cache.get(endpoint)
        if sock is not None:
            return sock
        sock = self.ctx.socket(endpoint)
        self._socket_cache[endpoint] = sock
        self._send_locks.setdefault(endpoint, threading.Lock())
        return sock

    def forget_lock(self, endpoint):
        self._send_locks.pop(endpoint, None)

    def _send_multipart_locked(self, endpoint, parts):
        sock = self._connect(endpoint)
        with self._send_locks[endpoint]:  # want: SGL004 "KeyError"
            sock.send_multipart(parts)
