"""A constructor that refuses to build a manager with nothing registered:
the state is non-empty for the object's whole life, unless something
empties it later or runs before the check."""
import threading

from kvbase import BaseKVManager


class RefusingManager(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        self._register_buffers()
        if not self.kv_mem_descs:
            raise RuntimeError("no KV buffers registered on this rank")

    def _register_buffers(self):
        for ptr in self.kv_args.kv_data_ptrs:
            self.kv_mem_descs.append(self.engine.register(ptr, 0))

    def send_first_layer(self, pages):
        return self.engine.write(self.kv_mem_descs[0], pages)


class ReleasingManager(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        self._register_buffers()
        if not self.kv_mem_descs:
            raise RuntimeError("no KV buffers registered on this rank")

    def _register_buffers(self):
        for ptr in self.kv_args.kv_data_ptrs:
            self.kv_mem_descs.append(self.engine.register(ptr, 0))

    def release(self):
        for desc in self.kv_mem_descs:
            self.engine.deregister(desc)
        self.kv_mem_descs.clear()

    def send_first_layer(self, pages):
        return self.engine.write(self.kv_mem_descs[0], pages)  # want: SGL001 "may be empty"


class EagerWorkerManager(BaseKVManager):
    def __init__(self, args, engine, jobs):
        self.kv_args = args
        self.engine = engine
        self.jobs = jobs
        self.kv_mem_descs = []
        threading.Thread(target=self._pump, daemon=True).start()
        self._register_buffers()
        if not self.kv_mem_descs:
            raise RuntimeError("no KV buffers registered on this rank")

    def _register_buffers(self):
        for ptr in self.kv_args.kv_data_ptrs:
            self.kv_mem_descs.append(self.engine.register(ptr, 0))

    def _pump(self):
        while True:
            job = self.jobs.get()
            self.engine.write(self.kv_mem_descs[0], job.pages)  # want: SGL001 "may be empty"
