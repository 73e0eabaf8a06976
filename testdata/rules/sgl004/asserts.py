"""A bare `assert key in table` is a membership check: the lookup after it
cannot raise KeyError. What the assertion's own failure does is a
deliberate raise, which SGL004 does not judge."""

from workers import _Worker


class BareAssertingWorker(_Worker):
    def _loop(self):
        while True:
            job = self.jobs.get()
            assert job.peer in self.peer_layouts, "peer not registered"
            layout = self.peer_layouts[job.peer]
            self.agent.post(layout, job.pages)


class BareAssertOtherKeyWorker(_Worker):
    def _loop(self):
        while True:
            job = self.jobs.get()
            assert job.room in self.peer_layouts, "room not registered"
            layout = self.peer_layouts[job.peer]  # want: SGL004 "KeyError"
            self.agent.post(layout, job.pages)
