"""The check lives in the caller; the helper only ever runs after it."""
from kvbase import BaseKVManager

class CallerGuardSender(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        for ptr in args.kv_data_ptrs:
            self.kv_mem_descs.append(engine.register(ptr, 0))

    def send_batch(self, pages):
        if not self.kv_mem_descs:
            return []
        return self._emit_head(pages)

    def _emit_head(self, pages):
        head = self.kv_mem_descs[0]
        return self.engine.write(head, pages)

    def send_batch_unchecked(self, pages):
        return self._emit_tail(pages)

    def _emit_tail(self, pages):
        tail = self.kv_mem_descs[-1]  # want: SGL001 "may be empty"
        return self.engine.write(tail, pages)


class SchedulerGuardedManager(BaseKVManager):
    """A send entry whose every caller, off the send paths, checks first:
    judged under those checks."""

    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        for ptr in args.kv_data_ptrs:
            self.kv_mem_descs.append(engine.register(ptr, 0))

    def send_layers(self, pages):
        return self.engine.write(self.kv_mem_descs[0], pages)


class SchedulerUnguardedManager(SchedulerGuardedManager):
    def send_layers(self, pages):
        return self.engine.write(self.kv_mem_descs[0], pages)  # want: SGL001 "may be empty"


class PrefillLoop:
    """Scheduler-side code: not a send path, but it calls the entries."""

    def __init__(self, mgr: SchedulerGuardedManager, other: SchedulerUnguardedManager):
        self.mgr = mgr
        self.other = other

    def step(self, pages):
        if not self.mgr.kv_mem_descs:
            return None
        return self.mgr.send_layers(pages)

    def step_other(self, pages):
        return self.other.send_layers(pages)
