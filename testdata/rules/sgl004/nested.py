"""Send entries called by other send code are judged in their callers'
context (nixl's send_kvcache_mixed / _send_kvcache_generic); other table
shapes: defaultdict, lookups inside comprehensions, a handler outside the
request loop."""

import threading
from collections import defaultdict
from kvbase import BaseKVManager

class NestedSender(BaseKVManager):
    def __init__(self, agent, jobs, fatal_jobs):
        self.agent = agent
        self.jobs = jobs
        self.fatal_jobs = fatal_jobs
        self.layouts = {}
        self.counts = defaultdict(int)
        threading.Thread(target=self.transfer_worker, daemon=True).start()
        threading.Thread(target=self._fatal_loop, daemon=True).start()
        threading.Thread(target=self._outer_try_loop, daemon=True).start()

    def register(self, peer, layout):
        self.layouts[peer] = layout
        self.counts[peer] += 1

    def _send_generic(self, peer, pages):
        # No check here: the callers' handlers and guards decide.
        return self.agent.post(self.layouts[peer], pages)

    def send_mixed(self, peer, pages):
        return self._send_generic(peer, pages)

    def _send_fatal_inner(self, peer, pages):
        return self.agent.post(self.layouts[peer], pages)  # want: SGL004 "ends transfer thread"

    def _send_checked_inner(self, peer, pages):
        return self.agent.post(self.layouts[peer], pages)

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            try:
                self.send_mixed(job.peer, job.pages)
                self.agent.bump(self.counts[job.peer])
            except Exception as exc:
                job.fail(str(exc))

    def _fatal_loop(self):
        while True:
            job = self.fatal_jobs.get()
            try:
                self._send_fatal_inner(job.peer, job.pages)
                if job.peer in self.layouts:
                    self._send_checked_inner(job.peer, job.pages)
            except Exception as exc:
                raise RuntimeError(f"transfer thread stopped: {exc}")

    def _outer_try_loop(self):
        try:
            while True:
                job = self.jobs.get()
                self.agent.post(self.layouts[job.peer], job.pages)  # want: SGL004 "after leaving the request loop"
        except Exception as exc:
            self.agent.report(exc)

    def send_if_any_ready(self, peers, pages):
        if any(p in self.layouts and self.layouts[p].ready for p in peers):
            return self.agent.post(pages)
        return None

    def send_any_unchecked(self, peers, pages):
        if any(self.layouts[p].ready for p in peers):  # want: SGL004 "KeyError"
            return self.agent.post(pages)
        return None


class ScheduledSender(NestedSender):
    def send_scheduled(self, peer, pages):
        # Its only project caller handles the KeyError for this request.
        return self.agent.post(self.layouts[peer], pages)

    def send_scheduled_bare(self, peer, pages):
        return self.agent.post(self.layouts[peer], pages)  # want: SGL004 "escapes send entry"


class Scheduler:
    def __init__(self, sender: "ScheduledSender"):
        self.sender = sender

    def step(self, peer, pages):
        try:
            self.sender.send_scheduled(peer, pages)
        except KeyError:
            return None
        return pages

    def step_bare(self, peer, pages):
        self.sender.send_scheduled_bare(peer, pages)
        return pages
