"""The real flat-layout helper does not index the list itself: it returns the
registered list and its length, and the caller loops over that length. On a
rank with no KV buffers the loop runs zero times and the send "succeeds".
The finding belongs where the unchecked state leaves the helper."""
from kvbase import BaseKVManager

class ReturnFlowManager(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        for ptr, size in zip(args.kv_data_ptrs, args.kv_data_lens):
            self.kv_mem_descs.append(engine.register(ptr, size))

    def _flat_views(self, remote):
        local = self.kv_mem_descs
        count = len(local)
        return local, remote[:count], count  # want: SGL001 "may be empty"

    def _split_views(self, remote):
        local = self.kv_mem_descs
        if not local:
            return [], [], remote, 0
        half = len(local) // 2
        return local[:half], local[half:], remote, half

    def send_layers(self, peer, pages, flat):
        if flat:
            src, dst, count = self._flat_views(peer.remote_descs)
            for layer in range(count):
                self.engine.write(src[layer], dst[layer], pages)
            return count
        keys, values, dst, half = self._split_views(peer.remote_descs)
        for layer in range(half):
            self.engine.write(keys[layer], dst[layer], pages)
            self.engine.write(values[layer], dst[half + layer], pages)
        return half
