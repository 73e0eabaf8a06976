"""Checks and uses through a local alias of the registration state."""
from kvbase import BaseKVManager

class AliasSender(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        self._register()

    def _register(self):
        for ptr in self.kv_args.kv_data_ptrs:
            self.kv_mem_descs.append(self.engine.register(ptr, 0))

    def send_pages(self, pages):
        descs = self.kv_mem_descs
        if not descs:
            return []
        return [self.engine.write(desc, pages) for desc in descs]

    def send_pages_unchecked(self, pages):
        descs = self.kv_mem_descs
        if not pages:
            return []
        return [self.engine.write(desc, pages) for desc in descs]  # want: SGL001 "may be empty"

    def send_first_page(self, pages):
        if not self.kv_mem_descs:
            return None
        first = self.kv_mem_descs
        return self.engine.write(first[0], pages)
