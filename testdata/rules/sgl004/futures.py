"""Transfer threads that push each job on an executor: the Future carries
the task's KeyError to `result()`, where the thread's handler decides."""

from concurrent.futures import ThreadPoolExecutor, as_completed

from workers import _Worker

class FutureWorker(_Worker):
    """Each job is pushed on a pool; the Future carries a KeyError of the
    task to `result()`, inside the per-job handler."""

    pool = ThreadPoolExecutor(4)

    def _push(self, job):
        layout = self.peer_layouts[job.peer]
        self.agent.post(layout, job.pages)

    def _loop(self):
        while True:
            job = self.jobs.get()
            try:
                fut = self.pool.submit(self._push, job)
                fut.result()
            except Exception as exc:
                job.fail(str(exc))


class FutureFatalWorker(_Worker):
    pool = ThreadPoolExecutor(4)

    def _push(self, job):
        layout = self.peer_layouts[job.peer]  # want: SGL004 "ends transfer thread `FutureFatalWorker._loop`"
        self.agent.post(layout, job.pages)

    def _loop(self):
        while True:
            job = self.jobs.get()
            fut = self.pool.submit(self._push, job)
            fut.result()


class FutureDroppedWorker(_Worker):
    pool = ThreadPoolExecutor(4)

    def _push(self, job):
        layout = self.peer_layouts[job.peer]  # want: SGL004 "keeps it in the Future"
        self.agent.post(layout, job.pages)

    def _loop(self):
        while True:
            job = self.jobs.get()
            self.pool.submit(self._push, job)


class PartsWorker(_Worker):
    """Futures gathered in a list and read as they complete, inside the
    per-job handler."""

    pool = ThreadPoolExecutor(4)

    def _push_part(self, peer, part):
        self.agent.post(self.peer_layouts[peer], part)

    def _loop(self):
        while True:
            job = self.jobs.get()
            try:
                futs = [self.pool.submit(self._push_part, job.peer, part) for part in job.parts]
                for fut in as_completed(futs):
                    fut.result()
            except Exception as exc:
                job.fail(str(exc))


class PartsFatalWorker(_Worker):
    pool = ThreadPoolExecutor(4)

    def _push_part(self, peer, part):
        self.agent.post(self.peer_layouts[peer], part)  # want: SGL004 "ends transfer thread `PartsFatalWorker._loop`"

    def _loop(self):
        while True:
            job = self.jobs.get()
            futs = []
            for part in job.parts:
                futs.append(self.pool.submit(self._push_part, job.peer, part))
            for fut in as_completed(futs):
                fut.result()


class NamedFutureWorker(_Worker):
    """The submitted function is a send entry by name; its Future is read
    inside the per-job handler, so it fails only the job."""

    pool = ThreadPoolExecutor(4)

    def send_job(self, job):
        self.agent.post(self.peer_layouts[job.peer], job.pages)

    def _loop(self):
        while True:
            job = self.jobs.get()
            try:
                self.pool.submit(self.send_job, job).result()
            except Exception as exc:
                job.fail(str(exc))


class NamedFutureFatalWorker(_Worker):
    pool = ThreadPoolExecutor(4)

    def send_job(self, job):
        self.agent.post(self.peer_layouts[job.peer], job.pages)  # want: SGL004 "it ends transfer thread `NamedFutureFatalWorker._loop`"

    def _loop(self):
        while True:
            job = self.jobs.get()
            self.pool.submit(self.send_job, job).result()
