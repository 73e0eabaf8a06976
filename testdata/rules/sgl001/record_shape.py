"""Record 795554d942550d42 in miniature.

A manager registers one descriptor per local KV buffer. The K/V split checks
for an empty list by raising; its flat-layout twin does not check at all, so a
rank without KV buffers "sends" zero layers. The request entry gates only on
the request being a dummy; the chunk entry skips the KV send when nothing is
registered.
"""
from kvbase import BaseKVManager

class LayerDescriptorManager(BaseKVManager):
    def __init__(self, args, engine, flat_layout):
        self.kv_args = args
        self.engine = engine
        self.flat_layout = flat_layout
        self.kv_mem_descs = []
        self._register_buffers()

    def _register_buffers(self):
        for ptr, size in zip(self.kv_args.kv_data_ptrs, self.kv_args.kv_data_lens):
            self.kv_mem_descs.append(self.engine.register(ptr, size))

    def _split_kv_layers(self, remote):
        local = self.kv_mem_descs
        if not local:
            raise RuntimeError("KV memory descriptors are empty on prefill side")
        half = len(local) // 2
        return local[:half], local[half:], remote[:half], remote[half:]

    def _flat_layers(self, remote):
        local = self.kv_mem_descs
        count = len(local)
        return local[:count], remote[:count]  # want: SGL001 "may be empty"

    def send_kvcache(self, peer, pages):
        if self.flat_layout:
            src, dst = self._flat_layers(peer.remote_descs)
            return self.engine.write_layers(src, dst, pages)
        k_src, v_src, k_dst, v_dst = self._split_kv_layers(peer.remote_descs)
        return self.engine.write_layers(k_src + v_src, k_dst + v_dst, pages)

    def add_transfer_request(self, peer, pages, is_dummy):
        # Gates on the request only, never on this rank having KV buffers.
        if is_dummy:
            return []
        return self.send_kvcache(peer, pages)  # want: SGL001 "RuntimeError" SGL010 "795554d942550d42"

    def send_chunk(self, peer, pages):
        # Twin of add_transfer_request: skip the KV send when nothing is registered.
        if not self.kv_mem_descs:
            return []
        return self.send_kvcache(peer, pages)
