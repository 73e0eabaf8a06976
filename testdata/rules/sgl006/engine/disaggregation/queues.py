"""The scheduler's disaggregation queues: each pop_*/process_* method
loops over requests in the scheduler's event loop, so an error of one
request must abort that request, not escape the loop."""
import requests

from kvbase import BaseKVManager, KVPoll


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


class PrefillInfoManager(BaseKVManager):
    """The decode side's manager: fetches each prefill server's layout
    once and refuses a server whose page size differs."""

    def __init__(self, page_size):
        self.page_size = page_size
        self.info_table = {}

    def ensure_info(self, addr):
        if addr in self.info_table:
            return True
        info = requests.get(f"http://{addr}/route", timeout=5).json()
        if info["page_size"] != self.page_size:
            raise RuntimeError(f"Page size mismatch: prefill has {info['page_size']}")
        self.info_table[addr] = info
        return True


def manager_class():
    return PrefillInfoManager


class DecodeResolveQueue:
    """The queue reaches the manager through an attribute a factory method
    fills: its return annotation says which class it holds."""

    def __init__(self, page_size):
        self.pending = []
        self.page_size = page_size
        self.kv_manager = self._init_kv_manager()

    def _init_kv_manager(self) -> PrefillInfoManager:
        return manager_class()(self.page_size)

    def pop_resolved(self):
        ready = []
        for req in self.pending:
            if self.kv_manager.ensure_info(req.bootstrap_addr):  # want: SGL006 "escapes queue loop `DecodeResolveQueue.pop_resolved`"
                ready.append(req)
        return ready


class CheckedResolveQueue(DecodeResolveQueue):
    def pop_resolved(self):
        ready = []
        for req in self.pending:
            try:
                if self.kv_manager.ensure_info(req.bootstrap_addr):
                    ready.append(req)
            except RuntimeError as e:
                prepare_abort(req, str(e))
        return ready
