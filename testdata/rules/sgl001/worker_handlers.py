"""A queue worker reaches the raising K/V split; one worker fails only the
request that hit it, the other lets the error end the thread."""

import threading
from kvbase import BaseKVManager

class _RegisteredLayers(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        for ptr, size in zip(args.kv_data_ptrs, args.kv_data_lens):
            self.kv_mem_descs.append(engine.register(ptr, size))

    def _split(self, remote):
        local = self.kv_mem_descs
        if not local:
            raise RuntimeError("KV memory descriptors are empty on prefill side")
        half = len(local) // 2
        return local[:half], local[half:], remote

    def _move(self, job):
        keys, values, remote = self._split(job.remote_descs)
        return self.engine.write_layers(keys + values, remote, job.pages)


class RequestScopedWorker(_RegisteredLayers):
    def __init__(self, args, engine, jobs):
        super().__init__(args, engine)
        self.jobs = jobs
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        while True:
            job = self.jobs.get()
            try:
                self._move(job)
            except Exception as exc:
                # Only this request fails; the thread keeps serving the others.
                job.fail(str(exc))


class ThreadFatalWorker(_RegisteredLayers):
    def __init__(self, args, engine, jobs):
        super().__init__(args, engine)
        self.jobs = jobs
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        while True:
            job = self.jobs.get()
            try:
                self._move(job)  # want: SGL001 "RuntimeError" SGL010 "795554d942550d42"
            except Exception as exc:
                raise RuntimeError(f"transfer thread stopped: {exc}")
