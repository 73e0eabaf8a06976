"""A send method that reads no registration state is never flagged; state
initialised to None and bound later by registration is registration state
too; lists that no registration fills are not."""
from kvbase import BaseKVManager

class AuxSender(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.aux_descs = []
        self.layer_plan = None
        for ptr in args.aux_data_ptrs:
            self.aux_descs.append(engine.register(ptr, 0))

    def register_plan(self, layers):
        self.layer_plan = [self.engine.register(l.ptr, l.size) for l in layers]

    def send_aux_inline(self, peer, index):
        payload = self.engine.read_inline(self.kv_args.aux_data_ptrs, index)
        return self.engine.push(peer, payload)

    def send_aux_desc(self, peer, index):
        return self.engine.push(peer, self.aux_descs[index])  # want: SGL001 "may be empty"

    def send_aux_fallback(self, peer, index):
        if not self.aux_descs:
            return self.send_aux_inline(peer, index)
        return self.engine.push(peer, self.aux_descs[index])

    def send_with_plan(self, peer, pages):
        first = self.layer_plan[0]  # want: SGL001 "may be (empty|None)"
        return self.engine.push(peer, first)

    def send_with_plan_checked(self, peer, pages):
        if not self.layer_plan:
            return None
        return self.engine.push(peer, self.layer_plan[0])


class QueueSender(BaseKVManager):
    """Lists filled by methods that register nothing: work queues, a cache.
    Empty is their normal state, not a rank without KV buffers."""

    def __init__(self, engine):
        self.engine = engine
        self.pending = []
        self.plan_cache = None
        self.workers = []
        for _ in range(4):
            self.workers.append(engine.spawn())
        self.register_buffers()

    def register_buffers(self):
        self.engine.register_all()

    def queue_request(self, req):
        self.pending.append(req)

    def build_plan(self, layers):
        self.plan_cache = [layer.offset for layer in layers]

    def send_pending(self, peer):
        for req in self.pending:
            self.engine.push(peer, req)

    def send_with_cache(self, peer):
        return self.engine.push(peer, self.plan_cache[0])

    def send_on_worker(self, peer, pages):
        return self.workers[0].push(peer, pages)
