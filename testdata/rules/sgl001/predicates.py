"""A check written as a predicate method: one that only returns its test
(perhaps naming it first) counts like the test written inline; one that
does more is not read."""
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
        return self.engine.write(self.kv_mem_descs[0], pages)  # want: SGL001 "may be empty"
