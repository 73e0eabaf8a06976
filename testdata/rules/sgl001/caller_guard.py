"""The check lives in the caller; the helper only ever runs after it."""
from kvbase import BaseKVManager

class CallerGuardSender(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        for ptr in args.kv_data_ptrs:
            self.kv_mem_descs.append(engine.register(ptr, 0))

    def send_batch(self, pages):
        if not self.kv_mem_descs:
            return []
        return self._emit_head(pages)

    def _emit_head(self, pages):
        head = self.kv_mem_descs[0]
        return self.engine.write(head, pages)

    def send_batch_unchecked(self, pages):
        return self._emit_tail(pages)

    def _emit_tail(self, pages):
        tail = self.kv_mem_descs[-1]  # want: SGL001 "may be empty"
        return self.engine.write(tail, pages)
