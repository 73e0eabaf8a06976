"""The scheduler's disaggregation queues: each pop_*/process_* method
loops over requests in the scheduler's event loop, so an error of one
request must abort that request, not escape the loop."""
from kvbase import KVPoll


def prepare_abort(req, message):
    req.finished = message


class DecodePreallocQueue:
    def __init__(self, pool):
        self.queue = []
        self.pool = pool

    def pop_preallocated(self):
        polls = [r.receiver.poll() for r in self.queue]
        for req, poll in zip(self.queue, polls):
            if poll == KVPoll.Bootstrapping:
                continue
            elif poll == KVPoll.WaitingForInput:
                req.ready = True
            elif poll == KVPoll.Failed:
                prepare_abort(req, "handshake failed")
            else:
                raise ValueError(f"Unexpected poll case: {poll}")  # want: SGL006 "escapes queue loop `DecodePreallocQueue.pop_preallocated`"


class DecodeTransferQueue:
    def __init__(self):
        self.queue = []

    def pop_transferred(self):
        done = []
        for req in self.queue:
            poll = req.receiver.poll()
            if poll == KVPoll.Failed or req.restore_failed:
                prepare_abort(req, "transfer failed")
            elif poll == KVPoll.Success:
                done.append(req)
            elif poll in [KVPoll.Bootstrapping, KVPoll.WaitingForInput, KVPoll.Transferring]:
                pass
            else:
                raise ValueError(f"Unexpected poll case: {poll}")
        return done


class PrefillBootstrapQueue:
    def __init__(self, pool, pp_size):
        self.queue = []
        self.pool = pool
        self.pp_size = pp_size

    def _reserve(self, req):
        slots = self.pool.alloc(req.num_pages)
        if slots is None:
            raise RuntimeError(f"no room for {req.num_pages} pages")
        req.slots = slots

    def pop_bootstrapped(self, rids_to_check=None):
        if rids_to_check is not None and self.pp_size > 1:
            raise ValueError("rids_to_check cannot be used in PP mode")
        for req in self.queue:
            try:
                self._reserve(req)
            except RuntimeError as e:
                prepare_abort(req, str(e))
                continue


class SchedulerDisaggregationDecodeMixin:
    def _evict_for(self, req):
        needed = req.num_pages - self.pool.available()
        if needed > 0:
            raise RuntimeError(f"eviction insufficient: needed={needed}")

    def process_decode_queue(self):
        for req in self.waiting:
            self._evict_for(req)  # want: SGL006 "escapes queue loop `SchedulerDisaggregationDecodeMixin.process_decode_queue`"
            self.running.append(req)
