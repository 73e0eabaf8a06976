"""A transport call this project guards in one place is a source
everywhere else on KV paths."""
import threading

from nixl_like import make_agent

from kvbase import BaseKVManager, KVPoll


class AgentManager(BaseKVManager):
    def __init__(self, queue):
        self.agent = make_agent("prefill")
        self.queue = queue
        self.status = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()
        threading.Thread(target=self.careful_worker, daemon=True).start()

    def update_status(self, room, status):
        self.status[room] = status

    def send_aux(self, room, handle):
        try:
            self.agent.transfer(handle)
        except Exception:
            self.update_status(room, KVPoll.Failed)

    def transfer_worker(self):
        while True:  # want: SGL005 "`self.agent.transfer\(job.handle\)`, which this project guards elsewhere"
            job = self.queue.get()
            self.agent.transfer(job.handle)

    def careful_worker(self):
        while True:
            job = self.queue.get()
            try:
                self.agent.transfer(job.handle)
            except Exception:
                self.update_status(job.room, KVPoll.Failed)
