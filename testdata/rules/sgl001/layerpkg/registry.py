"""Base class in its own module: it owns the registration state."""
from kvbase import BaseKVManager

class LayerRegistry(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        self._register_layers()

    def _register_layers(self):
        for ptr, size in zip(self.kv_args.kv_data_ptrs, self.kv_args.kv_data_lens):
            self.kv_mem_descs.append(self.engine.register(ptr, size))
