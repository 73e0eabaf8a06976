"""getattr with a None default, and calls between the check and the send
that give the value again."""

import threading

from kindpkg.base_kinds import KindDefaults


class CallWriter(KindDefaults):
    def __init__(self, agent, jobs):
        super().__init__()
        self.agent = agent
        self.jobs = jobs
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def write(self, peer, pages, dst_mem_kind):
        return self.agent.post(peer, pages, dst_mem_kind)

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            try:
                self._send_attr_default(job)
            except Exception as exc:
                job.fail(str(exc))

    def _send_attr_default(self, job):
        return self.write(job.peer, job.pages, dst_mem_kind=getattr(job.info, "dst_kind", None))  # want: SGL002 "getattr with a None default returns None"

    def _send_attr_default_checked(self, job):
        kind = getattr(job.info, "dst_kind", None)
        if kind is None:
            raise RuntimeError("Missing destination KV memory kind")
        return self.write(job.peer, job.pages, dst_mem_kind=kind)

    def _send_attr_default_checked_inline(self, job):
        if getattr(job.info, "dst_kind", None) is None:
            raise RuntimeError("Missing destination KV memory kind")
        return self.write(job.peer, job.pages, dst_mem_kind=getattr(job.info, "dst_kind", None))

    def _refresh_host_kind(self):
        self.host_kind = self.agent.detect_host_kind()

    def _trace(self, job):
        self.agent.log("sending %s" % job.peer)

    def _send_host_after_refresh(self, job):
        if self.host_kind is None:
            return job.fail("host kind not adopted yet")
        self._refresh_host_kind()
        return self.write(job.peer, job.pages, dst_mem_kind=self.host_kind)  # want: SGL002 "may be None"

    def _send_host_after_trace(self, job):
        if self.host_kind is None:
            return job.fail("host kind not adopted yet")
        self._trace(job)
        return self.write(job.peer, job.pages, dst_mem_kind=self.host_kind)
