"""A check that holds on one branch only does not protect the join."""
from kvbase import BaseKVManager

class BranchSender(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        for ptr in args.kv_data_ptrs:
            self.kv_mem_descs.append(engine.register(ptr, 0))

    def send_mixed(self, pages, fast):
        if fast:
            if not self.kv_mem_descs:
                return []
        return self.engine.write(self.kv_mem_descs[0], pages)  # want: SGL001 "may be empty"

    def send_mixed_checked(self, pages, fast):
        if fast:
            if not self.kv_mem_descs:
                return []
        elif not self.kv_mem_descs:
            return None
        return self.engine.write(self.kv_mem_descs[0], pages)
