"""A backend that registers one descriptor per local KV buffer and splits
them per layer for each send."""

from typing import List

from sglang.srt.disaggregation.common.conn import CommonKVManager


class RingKVManager(CommonKVManager):
    def __init__(self, args, ctx, engine, is_mla):
        super().__init__(args, ctx)
        self.engine = engine
        self.is_mla = is_mla
        self.kv_mem_descs: List[object] = []
        self.state_mem_descs: List[object] = []
        self._register_local_buffers()

    def _register_local_buffers(self):
        for ptr, length in zip(self.kv_args.kv_data_ptrs, self.kv_args.kv_data_lens):
            self.kv_mem_descs.append(self.engine.register_memory(ptr, length))
        for ptr, length in zip(self.kv_args.state_data_ptrs, self.kv_args.state_data_lens):
            self.state_mem_descs.append(self.engine.register_memory(ptr, length))

    def _mha_slices(self, dst_descs):
        src = self.kv_mem_descs
        if not src:
            raise RuntimeError("KV memory descriptors are empty on prefill side")
        half = len(src) // 2
        return src[:half], src[half:], dst_descs[:half], dst_descs[half:]

    def _mla_slices(self, dst_descs):
        src = self.kv_mem_descs
        layers = len(src)
        return src, dst_descs[:layers], layers

    def send_kvcache(self, peer, pages):
        if self.is_mla:
            src, dst, layers = self._mla_slices(peer.dst_descs)
            for i in range(layers):
                self.engine.write(src[i], dst[i], pages)
            return
        k_src, v_src, k_dst, v_dst = self._mha_slices(peer.dst_descs)
        self.engine.write_many(k_src + v_src, k_dst + v_dst, pages)

    # Silent: returns early when this rank registered no state buffers.
    def send_state(self, peer, index):
        if not self.state_mem_descs:
            return
        self.engine.write(self.state_mem_descs[index], peer.dst_state, [index])

    def add_transfer_request(self, room, peer, pages, is_dummy):
        if is_dummy:
            return
        self.send_kvcache(peer, pages)
