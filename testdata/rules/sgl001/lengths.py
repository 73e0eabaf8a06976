"""Emptiness checks written on the length: a match on it, or arithmetic on
it that ends in a zero test (a per-layer split that sizes its halves first).
Each has a look-alike whose test does not rule out an empty state."""
from kvbase import BaseKVManager

class LengthSender(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        self._register_buffers()

    def _register_buffers(self):
        for ptr in self.kv_args.kv_data_ptrs:
            self.kv_mem_descs.append(self.engine.register(ptr, 0))

    def send_matched(self, pages):
        match len(self.kv_mem_descs):
            case 0:
                return []
        return self.engine.write(self.kv_mem_descs[0], pages)

    def send_matched_single(self, pages):
        match len(self.kv_mem_descs):
            case 1:
                return self.engine.write(self.kv_mem_descs[0], pages)
        return self.engine.write(self.kv_mem_descs[0], pages)  # want: SGL001 "may be empty"

    def send_layers(self, remote, pages):
        local = self.kv_mem_descs
        layers = len(local) // 2
        if layers == 0:
            return []
        return self.engine.write_layers(local[:layers], local[layers:], remote, pages)

    def send_layers_traced(self, remote, pages):
        local = self.kv_mem_descs
        layers = len(local) // 2  # want: SGL001 "divided down"
        if layers == 0:
            self.engine.trace("no layers on this rank")
        return self.engine.write_layers(local[:layers], local[layers:], remote, pages)

    def send_scaled(self, remote, pages):
        blocks = len(self.kv_mem_descs) * self.kv_args.block_count
        if not blocks:
            return []
        return self.engine.write_blocks(self.kv_mem_descs[0], blocks, remote, pages)

    def send_scaled_traced(self, remote, pages):
        blocks = len(self.kv_mem_descs) * self.kv_args.block_count
        if not blocks:
            self.engine.trace("no blocks on this rank")
        return self.engine.write_blocks(self.kv_mem_descs[0], blocks, remote, pages)  # want: SGL001 "may be empty"

    def send_halves_inline(self, remote, pages):
        if len(self.kv_mem_descs) // 2 == 0:
            return []
        half = len(self.kv_mem_descs) // 2
        return self.engine.write_layers(self.kv_mem_descs[:half], self.kv_mem_descs[half:], remote, pages)

    def send_halves_inline_wide(self, remote, pages):
        if len(self.kv_mem_descs) // 2 > 8:
            return []
        half = len(self.kv_mem_descs) // 2  # want: SGL001 "divided down"
        return self.engine.write_layers(self.kv_mem_descs[:half], self.kv_mem_descs[half:], remote, pages)
