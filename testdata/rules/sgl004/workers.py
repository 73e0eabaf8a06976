"""Transfer threads reading the peer table, with and without a handler that
fails only the current job."""

import os
import threading

from tablepkg.base import PeerTables


class _Worker(PeerTables):
    def __init__(self, agent, jobs):
        super().__init__()
        self.agent = agent
        self.jobs = jobs
        threading.Thread(target=self._loop, daemon=True).start()


class ThreadFatalWorker(_Worker):
    def _loop(self):
        while True:
            job = self.jobs.get()
            try:
                layout = self.peer_layouts[job.peer]  # want: SGL004 "KeyError"
                self.agent.post(layout, job.pages)
            except Exception as exc:
                raise RuntimeError(f"transfer thread stopped: {exc}")


class UnhandledWorker(_Worker):
    def _loop(self):
        while True:
            job = self.jobs.get()
            layout = self.peer_layouts[job.peer]  # want: SGL004 "KeyError"
            self.agent.post(layout, job.pages)


class RequestFailingWorker(_Worker):
    def _loop(self):
        while True:
            job = self.jobs.get()
            try:
                layout = self.peer_layouts[job.peer]
                self.agent.post(layout, job.pages)
            except Exception as exc:
                job.fail(str(exc))


class AssertingWorker(_Worker):
    def _loop(self):
        while True:
            job = self.jobs.get()
            try:
                assert job.peer in self.peer_layouts, "peer not registered"
                layout = self.peer_layouts[job.peer]
                self.agent.post(layout, job.pages)
            except Exception as exc:
                job.fail(str(exc))


class ProcessExitingWorker(_Worker):
    def _loop(self):
        while True:
            job = self.jobs.get()
            try:
                layout = self.peer_layouts[job.peer]  # want: SGL004 "the handler at line 67 ends the process"
                self.agent.post(layout, job.pages)
            except Exception as exc:
                self.agent.report(f"transfer failed: {exc}")
                os._exit(1)


class ReturningWorker(_Worker):
    def _loop(self):
        while True:
            job = self.jobs.get()
            try:
                layout = self.peer_layouts[job.peer]  # want: SGL004 "the handler at line 79 leaves the request loop"
                self.agent.post(layout, job.pages)
            except Exception as exc:
                job.fail(str(exc))
                return


class ContinuingWorker(_Worker):
    def _loop(self):
        while True:
            job = self.jobs.get()
            try:
                layout = self.peer_layouts[job.peer]
                self.agent.post(layout, job.pages)
            except Exception as exc:
                job.fail(str(exc))
                continue


class InnerBreakWorker(_Worker):
    def _loop(self):
        while True:
            batch = self.jobs.get()
            for job in batch:
                try:
                    layout = self.peer_layouts[job.peer]
                    self.agent.post(layout, job.pages)
                except Exception as exc:
                    job.fail(str(exc))
                    break
