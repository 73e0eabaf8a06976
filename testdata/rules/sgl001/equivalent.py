"""Descriptors are registered from kv_args.kv_data_ptrs, so checking the
pointers is checking the descriptors (default equivalence group)."""
from kvbase import BaseKVManager

class EquivalentGuardSender(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        for ptr, size in zip(args.kv_data_ptrs, args.kv_data_lens):
            self.kv_mem_descs.append(engine.register(ptr, size))

    def send_when_buffers(self, pages):
        if not self.kv_args.kv_data_ptrs:
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)

    def send_when_len(self, pages):
        if len(self.kv_mem_descs) == 0:
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)

    def send_when_aux(self, pages):
        if not self.kv_args.aux_data_ptrs:
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)  # want: SGL001 "may be empty"
