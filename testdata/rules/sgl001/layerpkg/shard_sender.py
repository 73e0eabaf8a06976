"""Subclass in another module reads the state its base registers."""

from layerpkg.registry import LayerRegistry


class ShardSender(LayerRegistry):
    def send_last_shard(self, pages):
        return self.engine.write(self.kv_mem_descs[-1], pages)  # want: SGL001 "may be empty"

    def send_last_shard_checked(self, pages):
        if not self.kv_mem_descs:
            return []
        return self.engine.write(self.kv_mem_descs[-1], pages)
