"""Order matters: a check after the use, and a reassignment after the check."""
from kvbase import BaseKVManager

class OrderingSender(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        for ptr in args.kv_data_ptrs:
            self.kv_mem_descs.append(engine.register(ptr, 0))

    def send_check_late(self, pages):
        head = self.kv_mem_descs[0]  # want: SGL001 "may be empty"
        if not self.kv_mem_descs:
            return None
        return self.engine.write(head, pages)

    def send_check_early(self, pages):
        if not self.kv_mem_descs:
            return None
        head = self.kv_mem_descs[0]
        return self.engine.write(head, pages)

    def send_after_refilter(self, pages):
        if not self.kv_mem_descs:
            return None
        self.kv_mem_descs = self._live_only()
        return self.engine.write(self.kv_mem_descs[0], pages)  # want: SGL001 "may be empty"

    def send_after_refilter_checked(self, pages):
        if not self.kv_mem_descs:
            return None
        self.kv_mem_descs = self._live_only()
        if not self.kv_mem_descs:
            return None
        return self.engine.write(self.kv_mem_descs[0], pages)

    def _live_only(self):
        return [desc for desc in self.kv_mem_descs if desc.alive]
