"""Transfer threads: an error of one chunk must fail that chunk's request
and let the loop take the next one."""
import threading

from kvbase import BaseKVManager, KVPoll


class _Manager(BaseKVManager):
    def __init__(self, agent, queue):
        self.agent = agent
        self.queue = queue
        self.mode = "prefill"
        self.transfer_infos = {}
        self.status = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def add_request(self, room, info):
        self.transfer_infos[room] = info

    def record_failure(self, room, reason):
        self.status[room] = reason

    def update_status(self, room, status):
        self.status[room] = status

    def _stage(self, chunk):
        return chunk.pages is not None


class RaisingManager(_Manager):
    def transfer_worker(self):
        while True:
            try:
                chunk = self.queue.get()
                if not self._stage(chunk):
                    raise RuntimeError("staging failed")
                self.transfer_infos.pop(chunk.room)
            except Exception as e:  # want: SGL005 "KV thread `RaisingManager.transfer_worker` ends when serving one request fails: this handler raises again, so the error leaves the loop, and every request queued on it stalls"
                raise RuntimeError(f"Transfer thread failed because of {e}")


class FailingManager(_Manager):
    def transfer_worker(self):
        while True:
            chunk = self.queue.get()
            try:
                if not self._stage(chunk):
                    raise RuntimeError("staging failed")
                self.transfer_infos.pop(chunk.room)
            except Exception as e:
                self.record_failure(chunk.room, f"transfer failed: {e}")
                self.update_status(chunk.room, KVPoll.Failed)


class PopOnlyManager(_Manager):
    def transfer_worker(self):
        while True:
            try:
                chunk = self.queue.get()
                self.agent.post(chunk)
                self.transfer_infos.pop(chunk.room)
            except Exception as e:  # want: SGL005 "KeyError from `self.transfer_infos.pop\(chunk.room\)`"
                raise RuntimeError(f"Transfer thread failed because of {e}")


class PopDefaultManager(_Manager):
    def transfer_worker(self):
        while True:
            try:
                chunk = self.queue.get()
                self.agent.post(chunk)
                self.transfer_infos.pop(chunk.room, None)
            except Exception as e:
                raise RuntimeError(f"Transfer thread failed because of {e}")


class ReturningManager(_Manager):
    def transfer_worker(self):
        while True:
            chunk = self.queue.get()
            try:
                if not self._stage(chunk):
                    raise RuntimeError("staging failed")
            except Exception as e:  # want: SGL005 "this handler leaves the loop"
                self.record_failure(chunk.room, str(e))
                return


class OuterTryManager(_Manager):
    def transfer_worker(self):
        try:
            while True:  # want: SGL005 "the handler at line 96 runs only after the loop is left"
                chunk = self.queue.get()
                if not self._stage(chunk):
                    raise RuntimeError("staging failed")
        except Exception as e:
            self.record_failure(None, str(e))


class ConfigAssertManager(_Manager):
    def transfer_worker(self):
        while True:
            chunk = self.queue.get()
            assert self.mode == "prefill"
            self.agent.post(chunk)


class LookupOnlyManager(_Manager):
    def transfer_worker(self):
        while True:
            chunk = self.queue.get()
            info = self.transfer_infos[chunk.room]
            self.agent.post(info, chunk)


class InnerBreakManager(_Manager):
    def transfer_worker(self):
        while True:
            batch = self.queue.get()
            for chunk in batch:
                try:
                    if not self._stage(chunk):
                        raise RuntimeError("staging failed")
                except Exception as e:
                    self.record_failure(chunk.room, str(e))
                    break


class StateManager(_Manager):
    """A length contract between prefill and decode indices, checked by
    raising: one request's edge case (decode registered no state row)."""

    def _send_state(self, src, dst):
        if len(src) != len(dst):
            raise RuntimeError("state index length mismatch")
        self.agent.post(src, dst)

    def transfer_worker(self):
        while True:  # want: SGL005 "`raise RuntimeError\(\"state index length mismatch\"\)`"
            chunk = self.queue.get()
            self._send_state(chunk.src, chunk.dst)


class EqualisingStateManager(StateManager):
    def transfer_worker(self):
        while True:
            chunk = self.queue.get()
            src = chunk.src[: len(chunk.dst)]
            self._send_state(src, chunk.dst)


class SkippingStateManager(StateManager):
    def transfer_worker(self):
        while True:
            chunk = self.queue.get()
            if len(chunk.src) != len(chunk.dst):
                self.record_failure(chunk.room, "state rows differ")
                continue
            self._send_state(chunk.src, chunk.dst)
