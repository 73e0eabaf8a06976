"""A sender holds its manager and reads the manager's registration state
through it, the shape of every real backend's sender."""
from kvbase import BaseKVManager, BaseKVSender


class DescManager(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        self._register_buffers()

    def _register_buffers(self):
        for ptr in self.kv_args.kv_data_ptrs:
            self.kv_mem_descs.append(self.engine.register(ptr, 0))


class DescSender(BaseKVSender):
    def __init__(self, mgr: DescManager, room):
        self.kv_mgr = mgr
        self.room = room

    def send_first_layer(self, pages):
        return self.kv_mgr.engine.write(self.kv_mgr.kv_mem_descs[0], pages)  # want: SGL001 "`self.kv_mgr.kv_mem_descs` may be empty"

    def send_first_layer_checked(self, pages):
        if not self.kv_mgr.kv_mem_descs:
            return []
        return self.kv_mgr.engine.write(self.kv_mgr.kv_mem_descs[0], pages)

    def send_layers(self, pages):
        descs = self.kv_mgr.kv_mem_descs
        return [self.kv_mgr.engine.write(d, pages) for d in descs]  # want: SGL001 "loop over it runs zero times"

    def send_layers_when_pointers(self, pages):
        if not self.kv_mgr.kv_args.kv_data_ptrs:
            return []
        descs = self.kv_mgr.kv_mem_descs
        return [self.kv_mgr.engine.write(d, pages) for d in descs]
