"""More publication shapes: loops, typed parameters, objects built locally
(mooncake's registration), initialisation several calls deep."""

import threading


class Segments:
    def __init__(self):
        self.items = []


class PeerInfo:
    def __init__(self, name):
        self.name = name
        self.kind = None
        self.segments = Segments()
        self.ready = False

    @classmethod
    def from_message(cls, msg):
        return cls(msg.name)

    def mark_ready(self):
        self.ready = True

    def describe(self):
        return "%s:%s" % (self.name, self.kind)
from kvbase import BaseKVManager

class Directory(BaseKVManager):
    def __init__(self, agent, jobs):
        self.agent = agent
        self.jobs = jobs
        self.infos = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def _fill_kind(self, info):
        info.kind = self.agent.kind_of(info.name)

    def _prepare(self, info):
        self.agent.connect(info.name)
        self._fill_kind(info)

    def _add_segments(self, segments):
        segments.items.append(self.agent.segment())

    def add_many_last(self, infos):
        for info in infos:
            info.ready = True
            self.infos[info.name] = info

    def add_many_then_mark_last(self, infos):
        info = None
        for info in infos:
            self.infos[info.name] = info  # want: SGL003 "published before"
        if info is not None:
            info.ready = True

    def add_typed_late(self, info: PeerInfo):
        self.infos[info.name] = info  # want: SGL003 "published before"
        info.mark_ready()

    def add_typed_describe(self, info: PeerInfo):
        info.mark_ready()
        self.infos[info.name] = info
        self.agent.log(info.describe())

    def add_from_message(self, msg):
        info = PeerInfo.from_message(msg)
        info.kind = msg.kind
        self.infos[msg.name] = info

    def add_from_message_early(self, msg):
        info = PeerInfo.from_message(msg)
        self.infos[msg.name] = info  # want: SGL003 "published before"
        info.kind = msg.kind

    def add_deep_late(self, info):
        self.infos[info.name] = info  # want: SGL003 "_prepare"
        self._prepare(info)

    def add_deep_first(self, info):
        self._prepare(info)
        self.infos[info.name] = info

    def add_segments_late(self, info):
        self.infos[info.name] = info  # want: SGL003 "segments"
        self._add_segments(info.segments)

    def add_segments_first(self, info):
        self._add_segments(info.segments)
        self.infos[info.name] = info

    def replace_then_fill_other(self, info, spare):
        self.infos[info.name] = info
        info = spare
        info.ready = True

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            info = self.infos.get(job.peer)
            if info is None:
                job.fail("unknown peer")
                continue
            self.agent.post(job.pages, info.kind, info.segments.items)
