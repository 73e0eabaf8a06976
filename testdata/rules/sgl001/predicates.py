"""A check written as a predicate method counts like the test written
inline: one that returns its test (perhaps naming it first, or measuring
the length), holds a lock or logs around it, or returns constants after
it. One whose returns disagree is no check."""
from kvbase import BaseKVManager

class PredicateSender(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self.kv_mem_descs = []
        for ptr in args.kv_data_ptrs:
            self.kv_mem_descs.append(engine.register(ptr, 0))

    def _has_kv(self):
        return bool(self.kv_mem_descs)

    def _kv_missing(self):
        """Nothing registered on this rank."""
        return not self.kv_mem_descs

    def _kv_missing_named(self):
        missing = not self.kv_mem_descs
        return missing

    def _has_kv_in_steps(self):
        registered = len(self.kv_mem_descs)
        return registered > 0

    def _has_kv_locked(self):
        with self.engine.lock:
            self.engine.trace("checking registered buffers")
            return bool(self.kv_mem_descs)

    def _kv_missing_branchy(self):
        if not self.kv_mem_descs:
            self.engine.trace("nothing registered")
            return True
        return False

    def _has_kv_or_forced(self):
        if self.kv_mem_descs:
            return True
        return self.engine.force_send

    def send_if_has(self, pages):
        if not self._has_kv():
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)

    def send_unless_missing(self, pages):
        if self._kv_missing():
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)

    def send_inside_has(self, pages):
        if self._has_kv():
            return self.engine.write(self.kv_mem_descs[0], pages)
        return []

    def send_unless_missing_named(self, pages):
        if self._kv_missing_named():
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)

    def send_wrong_polarity(self, pages):
        if self._has_kv():
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)  # want: SGL001 "may be empty"

    def send_in_steps(self, pages):
        if not self._has_kv_in_steps():
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)

    def send_if_has_locked(self, pages):
        if not self._has_kv_locked():
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)

    def send_unless_missing_branchy(self, pages):
        if self._kv_missing_branchy():
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)

    def send_if_has_or_forced(self, pages):
        if not self._has_kv_or_forced():
            return []
        return self.engine.write(self.kv_mem_descs[0], pages)  # want: SGL001 "may be empty"
