"""A send method that reads no registration state is never flagged; state
initialised to None and filled later is registration state too."""
from kvbase import BaseKVManager

class AuxSender(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.aux_descs = []
        self.layer_plan = None
        for ptr in args.aux_data_ptrs:
            self.aux_descs.append(engine.register(ptr, 0))

    def build_plan(self, layers):
        self.layer_plan = [layer.offset for layer in layers]

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
