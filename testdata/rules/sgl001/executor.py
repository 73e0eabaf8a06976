"""Workers that push each request on a pool: the Future carries the split's
RuntimeError to `result()`. One reads it inside the per-request handler,
the other drops the Future."""

import threading
from concurrent.futures import ThreadPoolExecutor

from worker_handlers import _RegisteredLayers


class PooledWorker(_RegisteredLayers):
    pool = ThreadPoolExecutor(2)

    def __init__(self, args, engine, jobs):
        super().__init__(args, engine)
        self.jobs = jobs
        threading.Thread(target=self._pump, daemon=True).start()

    def _move_pooled(self, job):
        keys, values, remote = self._split(job.remote_descs)
        return self.engine.write_layers(keys + values, remote, job.pages)

    def _pump(self):
        while True:
            job = self.jobs.get()
            try:
                self.pool.submit(self._move_pooled, job).result()
            except Exception as exc:
                job.fail(str(exc))


class DetachedWorker(_RegisteredLayers):
    pool = ThreadPoolExecutor(2)

    def __init__(self, args, engine, jobs):
        super().__init__(args, engine)
        self.jobs = jobs
        threading.Thread(target=self._pump, daemon=True).start()

    def _move_detached(self, job):
        keys, values, remote = self._split(job.remote_descs)  # want: SGL001 "keeps the RuntimeError in the Future" SGL010 "795554d942550d42"
        return self.engine.write_layers(keys + values, remote, job.pages)

    def _pump(self):
        while True:
            job = self.jobs.get()
            self.pool.submit(self._move_detached, job)
