"""Weight sync and a block allocator: tables read by a name or an offset
outside KV transfer code."""

import threading


class ModelRunner:
    def __init__(self, dist):
        self.dist = dist
        self._weights_send_group = {}

    def init_weights_send_group(self, group_name, ranks):
        self._weights_send_group[group_name] = self.dist.new_group(ranks)

    def send_weights_to_remote_instance(self, group_name, tensors):
        group = self._weights_send_group[group_name]
        for t in tensors:
            self.dist.broadcast(t, group=group)


class BuddyAllocator:
    def __init__(self, size):
        self._blocks = {}
        self._free = [0]
        self._lock = threading.Lock()
        threading.Thread(target=self._compact_loop, daemon=True).start()

    def alloc(self, offset, n):
        self._blocks[offset] = n

    def free(self, offset):
        with self._lock:
            n = self._blocks[offset]
            self._free.append((offset, n))

    def _compact_loop(self):
        while True:
            for offset in list(self._free):
                self.free(offset)
