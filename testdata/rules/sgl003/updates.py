"""Writes after the store that update what the object already had are not
initialisation: a flag the function set before flipped on an error path,
or a part of the object handed to another component that records a
failure on it. Their placeholder and own-method twins still are."""

import threading

from kvbase import BaseKVManager


class Receiver:
    def __init__(self):
        self.state = None
        self.notified = False


class Request:
    def __init__(self, room, receiver):
        self.room = room
        self.receiver = receiver


class Recompute:
    """Another component: it fails the receiver it is given."""

    def __init__(self):
        self.failures = {}

    def submit(self, receiver, payload):
        if not payload:
            receiver.state = "failed"
            receiver.notified = True
            self.failures[id(receiver)] = "empty payload"


class StagingTable(BaseKVManager):
    def __init__(self, jobs, page_size):
        self.jobs = jobs
        self.page_size = page_size
        self.rooms = {}
        self.recompute = Recompute()
        threading.Thread(target=self.scatter_worker, daemon=True).start()

    def register_flag_flipped(self, room, req, offset):
        req.failed = False
        req.events = []
        self.rooms[room] = req
        if offset % self.page_size:
            req.failed = True

    def register_placeholder(self, room, req, kind_of):
        req.failed = False
        req.kind = None
        self.rooms[room] = req  # want: SGL003 "`req.kind` is still assigned"
        req.kind = kind_of(room)

    def register_then_recompute(self, room, req, payload):
        req.failed = False
        self.rooms[room] = req
        self.recompute.submit(req.receiver, payload)

    def register_then_own_fail(self, room, req, payload):
        req.failed = False
        self.rooms[room] = req  # want: SGL003 "still stores `receiver.state`"
        self._fail_receiver(req.receiver, payload)

    def _fail_receiver(self, receiver, payload):
        if not payload:
            receiver.state = "failed"

    def scatter_worker(self):
        while True:
            room = self.jobs.get()
            req = self.rooms.get(room)
            if req is None or req.failed:
                continue
            req.events.append((req.kind, req.receiver.state))
