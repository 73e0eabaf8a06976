"""Part (b) with an assert instead of a raise.

The helper asserts that the descriptors are there, which fails the same way
a raise does on a rank without KV buffers. The request entry gates only on
the request being a dummy; its twin skips the KV send when nothing is
registered.
"""
from kvbase import BaseKVManager

class AssertingKVManager(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        self._register_buffers()

    def _register_buffers(self):
        for ptr, size in zip(self.kv_args.kv_data_ptrs, self.kv_args.kv_data_lens):
            self.kv_mem_descs.append(self.engine.register(ptr, size))

    def _checked_layers(self, remote):
        assert self.kv_mem_descs, "no KV buffers registered"
        return self.kv_mem_descs, remote

    def send_kvcache(self, peer, pages):
        src, dst = self._checked_layers(peer.remote_descs)
        return self.engine.write_layers(src, dst, pages)

    def add_transfer_request(self, peer, pages, is_dummy):
        if is_dummy:
            return []
        return self.send_kvcache(peer, pages)  # want: SGL001 "raises AssertionError\(\"no KV buffers registered\"\)"

    def send_chunk(self, peer, pages):
        # Twin of add_transfer_request: skip the KV send when nothing is registered.
        if not self.kv_mem_descs:
            return []
        return self.send_kvcache(peer, pages)
