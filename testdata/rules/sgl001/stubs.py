"""Abstract and stub send methods are not send paths with a body to check;
the concrete override is."""

from abc import ABC, abstractmethod
from kvbase import BaseKVSender

class SenderInterface(BaseKVSender):
    @abstractmethod
    def send_kvcache(self, peer, pages):
        """Send the KV pages of one chunk to the peer."""

    @abstractmethod
    def send_aux(self, peer, index):
        ...

    def send_state(self, peer, indices):
        pass

    def send_metadata(self, peer):
        raise NotImplementedError


class DescriptorSender(SenderInterface):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        for ptr in args.kv_data_ptrs:
            self.kv_mem_descs.append(engine.register(ptr, 0))

    def send_kvcache(self, peer, pages):
        return self.engine.write(self.kv_mem_descs[0], pages)  # want: SGL001 "may be empty"

    def send_aux(self, peer, index):
        if not self.kv_mem_descs:
            return None
        return self.engine.write(self.kv_mem_descs[index], index)
