"""Registration state read through a property that returns it: the same
list under another name, caught like the method that returns it."""
from kvbase import BaseKVManager


class PropertyManager(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        self._register_buffers()

    def _register_buffers(self):
        for ptr in self.kv_args.kv_data_ptrs:
            self.kv_mem_descs.append(self.engine.register(ptr, 0))

    @property
    def descs(self):
        """The registered descriptors."""
        return self.kv_mem_descs

    def send_first_layer(self, pages):
        return self.engine.write(self.descs[0], pages)  # want: SGL001 "`self.descs` \(an alias of `self.kv_mem_descs`\) may be empty"

    def send_first_layer_checked(self, pages):
        if not self.descs:
            return []
        return self.engine.write(self.descs[0], pages)

    def send_first_layer_checked_directly(self, pages):
        if not self.kv_mem_descs:
            return []
        return self.engine.write(self.descs[0], pages)
