"""A module-level predicate in the shape of a record's typeGuard (a
function of the manager that returns a length test of its descriptors)
counts as the check wherever it is called, like a predicate method."""
from kvbase import BaseKVManager


def layers_ready(conn) -> bool:
    return len(conn.kv_mem_descs) > 0


class GuardedByPredicate(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        for ptr in args.kv_data_ptrs:
            self.kv_mem_descs.append(engine.register(ptr, 0))

    def send_when_ready(self, pages):
        if not layers_ready(self):
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)

    def send_without(self, pages):
        return self.engine.write(self.kv_mem_descs[0], pages)  # want: SGL001 "`self.kv_mem_descs` may be empty"
