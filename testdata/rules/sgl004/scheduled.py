"""Senders, receivers and a bootstrap server whose methods the scheduler
(or an HTTP client) calls directly: `poll`, `init`, route handlers. A
KeyError there is not confined to the request: it stops the scheduler."""
import threading

from kvbase import BaseKVBootstrapServer, BaseKVManager, BaseKVReceiver, BaseKVSender


class StatusManager(BaseKVManager):
    def __init__(self):
        self.status = {}
        self.prefill_info = {}

    def set_status(self, room, value):
        self.status[room] = value

    def add_prefill(self, addr, info):
        self.prefill_info[addr] = info

    def check_status(self, room):
        return self.status[room]  # want: SGL004 "escapes `PollingSender.poll` into the scheduler"

    def clear_room(self, room):
        self.status.pop(room, None)


class PollingSender(BaseKVSender):
    def __init__(self, mgr: StatusManager, room):
        self.kv_mgr = mgr
        self.room = room
        mgr.set_status(room, 0)

    def poll(self):
        return self.kv_mgr.check_status(self.room)

    def clear(self):
        self.kv_mgr.clear_room(self.room)


class GuardedPollingSender(PollingSender):
    def poll(self):
        if self.room not in self.kv_mgr.status:
            return -1  # failed: the room was cleared
        return self.kv_mgr.check_status(self.room)


class InitReceiver(BaseKVReceiver):
    def __init__(self, mgr: StatusManager, addr):
        self.kv_mgr = mgr
        self.addr = addr

    def init(self, rank):
        self.info = self.kv_mgr.prefill_info[self.addr]  # want: SGL004 "escapes `InitReceiver.init` into the scheduler"
        return self.info


class CheckedInitReceiver(InitReceiver):
    def init(self, rank):
        info = self.kv_mgr.prefill_info.get(self.addr)
        if info is None:
            self.kv_mgr.set_status(None, -1)
            return None
        self.info = info
        return info


class PortServer(BaseKVBootstrapServer):
    def __init__(self, app):
        self.ports = {}
        app.router.add_route("*", "/route", self._handle_route)
        app.router.add_get("/ready", self._handle_ready)
        threading.Thread(target=app.run, daemon=True).start()

    async def _handle_route(self, request):
        rank = request.query.get("rank")
        if request.method == "PUT":
            self.ports[rank] = request.query.get("port")
            return "OK"
        return self.ports[rank]  # want: SGL004 "escapes request handler `PortServer._handle_route`"

    async def _handle_ready(self, request):
        rank = request.query.get("rank")
        if rank not in self.ports:
            return 503
        return self.ports[rank]

    def describe(self, rank):
        return self.ports[rank]


class RankServer(BaseKVBootstrapServer):
    def __init__(self, app):
        self.ranks = {}
        app.router.add_put("/register", self._handle_register)
        app.router.add_get("/route", self._handle_route)
        app.router.add_get("/route_safe", self._handle_route_safe)

    async def _handle_register(self, request):
        data = await request.json()
        self.ranks[int(data["rank"])] = data["addr"]
        return 200

    async def _handle_route(self, request):
        rank = request.query.get("rank")
        return self.ranks[int(rank)]  # want: SGL004 "`self.ranks\[int\(rank\)\]` raises KeyError .* escapes request handler `RankServer._handle_route`"

    async def _handle_route_safe(self, request):
        rank = request.query.get("rank")
        try:
            return self.ranks[int(rank)]
        except KeyError:
            return 404


class FactoryManager(StatusManager):
    def info_of(self, addr):
        return self.prefill_info[addr]  # want: SGL004 "escapes `FactorySender.poll` into the scheduler"

    def checked_info_of(self, addr):
        return self.prefill_info[addr]


def make_factory_manager() -> FactoryManager:
    return FactoryManager()


class FactorySender(BaseKVSender):
    """The manager comes from a factory: calls through the local it
    returns are followed."""

    def __init__(self, addr):
        self.addr = addr

    def _manager(self):
        return FactoryManager()

    def poll(self):
        mgr = self._manager()
        return mgr.info_of(self.addr)

    def abort(self):
        mgr = make_factory_manager()
        if self.addr not in mgr.prefill_info:
            return None
        return mgr.checked_info_of(self.addr)
