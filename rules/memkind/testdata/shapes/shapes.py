import transport  # not in the project: a library


def kind_or_default(kinds):
    if not kinds:
        return "VRAM"
    return kinds[0]


class Shapes:
    def __init__(self, agent):
        self.agent = agent
        self.table = {}
        self.kind = None

    # A sink whose callee checks only through another checking callee.
    def forward(self, peer, dst_mem_kind=None):
        return self.write_checked(peer, dst_mem_kind=dst_mem_kind)

    def write_checked(self, peer, dst_mem_kind=None):
        if not dst_mem_kind:
            raise RuntimeError("no kind")
        return self.agent.post(peer, dst_mem_kind)

    # A callee that checks, but hands the parameter to a closure too.
    def write_later(self, peer, dst_mem_kind=None):
        if dst_mem_kind is None:
            raise RuntimeError("no kind")
        return lambda: self.agent.post(peer, dst_mem_kind)

    # A callee that normalises the parameter before use.
    def write_defaulted(self, peer, dst_mem_kind=None):
        dst_mem_kind = dst_mem_kind or "VRAM"
        return self.agent.post(peer, dst_mem_kind)

    def via_forward(self, peer, info):
        return self.forward(peer, dst_mem_kind=info.dest_kind)

    def via_closure(self, peer, info):
        return self.write_later(peer, dst_mem_kind=info.dest_kind)  # want: SGL002 "`write_later`"

    def via_defaulted(self, peer, info):
        return self.write_defaulted(peer, dst_mem_kind=info.dest_kind)

    # Fields looked up by name: silent when the declarations disagree.
    def ambiguous(self, peer, info):
        return transport.post(peer, dst_mem_kind=info.stage_kind)

    def unanimous(self, peer, info):
        return transport.post(peer, dst_mem_kind=info.dest_kind)  # want: SGL002 "declared `Optional\[str\] = None` in `Region` \(also in `Staging`\)"

    # An attribute of a module is not a field.
    def module_attr(self, peer):
        return transport.post(peer, dst_mem_kind=transport.dest_kind)

    # An explicit None is deliberate; a None reached through a local is not.
    def explicit_none(self, peer):
        return transport.post(peer, dst_mem_kind=None)

    def none_local(self, peer):
        kind = None
        return transport.post(peer, dst_mem_kind=kind)  # want: SGL002 "set to None on line"

    # Checks through an alias, a walrus, truthiness, isinstance.
    def alias_check(self, peer, info):
        kind = info.dest_kind
        k = kind
        if k is None:
            return None
        return transport.post(peer, dst_mem_kind=kind)

    def walrus_check(self, peer, info):
        if (kind := info.dest_kind) is None:
            return None
        return transport.post(peer, dst_mem_kind=kind)

    def truth_check(self, peer, info):
        if not info.dest_kind:
            return None
        return transport.post(peer, dst_mem_kind=info.dest_kind)

    def isinstance_check(self, peer, info):
        if not isinstance(info.dest_kind, str):
            return None
        return transport.post(peer, dst_mem_kind=info.dest_kind)

    def check_after(self, peer, info):
        sent = transport.post(peer, dst_mem_kind=info.dest_kind)  # want: SGL002
        if info.dest_kind is None:
            raise RuntimeError("too late")
        return sent

    # Defaults in the expression itself.
    def or_default(self, peer, info):
        return transport.post(peer, dst_mem_kind=info.dest_kind or "VRAM")

    def or_none(self, peer, info):
        return transport.post(peer, dst_mem_kind=info.dest_kind or self.kind)  # want: SGL002 "set to `None` in `Shapes.__init__`"

    def guarded_ternary(self, peer, info):
        return transport.post(peer, dst_mem_kind=info.dest_kind if info.dest_kind is not None else "VRAM")

    def unguarded_ternary(self, peer, info, ready):
        return transport.post(peer, dst_mem_kind=info.dest_kind if ready else "VRAM")  # want: SGL002

    # .get with and without a default.
    def get_default(self, peer):
        return transport.post(peer, dst_mem_kind=self.table.get(peer, "VRAM"))

    def get_none_default(self, peer):
        return transport.post(peer, dst_mem_kind=self.table.get(peer, None))  # want: SGL002 "returns None for a missing key"

    # Functions: one that never returns None, a generator's caller, awaits.
    def never_none(self, peer, kinds):
        return transport.post(peer, dst_mem_kind=kind_or_default(kinds))

    async def awaited(self, peer, info):
        kind = await self.resolve(info)
        return transport.post(peer, dst_mem_kind=kind)  # want: SGL002 "`resolve` may return None"

    async def awaited_checked(self, peer, info):
        kind = await self.resolve(info)
        assert kind is not None
        return transport.post(peer, dst_mem_kind=kind)

    async def resolve(self, info):
        if info.ready:
            return info.dest_kind
        return None

    # Loops: the None binding survives a loop that may not run.
    def loop(self, peer, kinds):
        kind = None
        for k in kinds:
            kind = k
        return transport.post(peer, dst_mem_kind=kind)  # want: SGL002

    def loop_else(self, peer, kinds):
        kind = None
        for k in kinds:
            kind = k
            break
        else:
            raise RuntimeError("no kinds")
        return transport.post(peer, dst_mem_kind=kind)

    # Other sinks: positional through the signature only for project callees.
    def positional_external(self, peer, info):
        return transport.post(peer, info.dest_kind)

    def star_args(self, peer, info):
        args = (peer, info.dest_kind)
        return self.forward(*args)


class CallerChecks:
    """The send is in a helper; the check is in its callers."""

    def __init__(self, agent):
        self.agent = agent
        self.peers = {}

    def checked_worker(self, peer):
        info = self.peers[peer]
        if info.dest_kind is None:
            raise RuntimeError("no kind")
        return self._post_checked(peer, info)

    def _post_checked(self, peer, info):
        return transport.post(peer, dst_mem_kind=info.dest_kind)

    def checked_worker_a(self, peer):
        info = self.peers[peer]
        if info.dest_kind is None:
            raise RuntimeError("no kind")
        return self._post_half(peer, info)

    def unchecked_worker_b(self, peer):
        return self._post_half(peer, self.peers[peer])

    def _post_half(self, peer, info):
        return transport.post(peer, dst_mem_kind=info.dest_kind)  # want: SGL002


class HelperChecks:
    def __init__(self):
        self.peers = {}

    def _require_kind(self, info):
        if info.dest_kind is None:
            raise RuntimeError("no kind")

    def _ready(self, info):
        return info.dest_kind is not None

    def _ready_in_steps(self, info):
        ready = info.dest_kind is not None
        return ready

    def _ready_branchy(self, info):
        if info.dest_kind is None:
            return False
        return True

    def _ready_logged(self, info):
        with self.lock:
            log.debug("checking %s", info)
            return info.dest_kind is not None

    def _ready_or_lenient(self, info):
        if info.dest_kind is None:
            return self.lenient
        return True

    def raising_helper(self, peer):
        info = self.peers[peer]
        self._require_kind(info)
        return transport.post(peer, dst_mem_kind=info.dest_kind)

    def predicate_helper(self, peer):
        # A predicate that only returns its test counts as the check.
        info = self.peers[peer]
        if not self._ready(info):
            return None
        return transport.post(peer, dst_mem_kind=info.dest_kind)

    def predicate_in_steps(self, peer):
        # Or that names its test first.
        info = self.peers[peer]
        if not self._ready_in_steps(info):
            return None
        return transport.post(peer, dst_mem_kind=info.dest_kind)

    def predicate_branchy(self, peer):
        # Several returns of constants after the test count too.
        info = self.peers[peer]
        if not self._ready_branchy(info):
            return None
        return transport.post(peer, dst_mem_kind=info.dest_kind)

    def predicate_logged(self, peer):
        # A lock and a log call around the returned test.
        info = self.peers[peer]
        if not self._ready_logged(info):
            return None
        return transport.post(peer, dst_mem_kind=info.dest_kind)

    def predicate_lenient(self, peer):
        # Its returns disagree: the unchecked one may be truthy.
        info = self.peers[peer]
        if not self._ready_or_lenient(info):
            return None
        return transport.post(peer, dst_mem_kind=info.dest_kind)  # want: SGL002
