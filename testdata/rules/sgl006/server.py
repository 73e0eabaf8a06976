"""A bootstrap server's route handlers: an error of one HTTP request must
become an answer the peer can act on."""
from kvbase import BaseKVBootstrapServer


class PortServer(BaseKVBootstrapServer):
    def __init__(self, app):
        self.ports = {}
        app.router.add_get("/route", self._handle_route)
        app.router.add_get("/safe", self._handle_safe)

    async def _handle_route(self, request):
        rank = request.query.get("rank")
        port = self.ports.get(rank)
        if port is None:
            raise RuntimeError(f"rank {rank} is not registered yet")  # want: SGL006 "escapes request handler `PortServer._handle_route`: the server answers 500"
        return port

    async def _handle_safe(self, request):
        rank = request.query.get("rank")
        port = self.ports.get(rank)
        if port is None:
            return 503
        return port
