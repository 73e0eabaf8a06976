"""Disaggregation queues: each pop_* method polls its requests and takes
those that are done off the queue. A request taken off must go on (to the
list the method returns) or end (aborted, its end streamed)."""
from kvbase import KVPoll


def prepare_abort(req, message):
    req.finished = message


class TransferQueue:
    def __init__(self, scheduler):
        self.queue = []
        self.scheduler = scheduler

    # Flagged: a failed transfer is taken off the queue and forgotten.
    def pop_transferred(self):
        done = []
        indices_to_remove = set()
        for i, (entry, poll) in enumerate(zip(self.queue, self.polls())):
            if poll == KVPoll.Failed:
                self.scheduler.log_failure(entry.req.rid)
                indices_to_remove.add(i)  # want: SGL008 "`entry` is removed from `self.queue` here, but nothing in this iteration hands it on"
            elif poll == KVPoll.Success:
                indices_to_remove.add(i)
                done.append(entry.req)
        self.queue = [e for j, e in enumerate(self.queue) if j not in indices_to_remove]
        return done

    def polls(self):
        return [e.receiver.poll() for e in self.queue]


class CheckedTransferQueue(TransferQueue):
    # Silent: the failed request is aborted and its end streamed.
    def pop_transferred(self):
        done = []
        indices_to_remove = set()
        for i, (entry, poll) in enumerate(zip(self.queue, self.polls())):
            if poll == KVPoll.Failed:
                prepare_abort(entry.req, "transfer failed")
                self.scheduler.stream_output([entry.req])
                indices_to_remove.add(i)
            elif poll == KVPoll.Success:
                indices_to_remove.add(i)
                if entry.req.corrupt:
                    self.scheduler.stream_output([entry.req])
                else:
                    done.append(entry.req)
        self.queue = [e for j, e in enumerate(self.queue) if j not in indices_to_remove]
        return done


class BootstrapQueue:
    def __init__(self, scheduler):
        self.queue = []
        self.scheduler = scheduler

    # Flagged: a request that timed out is removed; the abort is in the
    # other branch.
    def pop_bootstrapped(self, now):
        ready = []
        for req in list(self.queue):
            if req.deadline < now:
                self.queue.remove(req)  # want: SGL008 "`req` is removed from `self.queue` here"
            elif req.sender.poll() == KVPoll.Failed:
                prepare_abort(req, "bootstrap failed")
                self.queue.remove(req)
            elif req.sender.poll() == KVPoll.WaitingForInput:
                ready.append(req)
                self.queue.remove(req)
        return ready


class HelperBootstrapQueue(BootstrapQueue):
    def _fail(self, req, reason):
        prepare_abort(req, reason)
        self.scheduler.stream_output([req])

    # Silent: a helper of the queue aborts the request.
    def pop_bootstrapped(self, now):
        ready = []
        for req in list(self.queue):
            if req.deadline < now:
                self._fail(req, "bootstrap timed out")
                self.queue.remove(req)
            elif req.sender.poll() == KVPoll.WaitingForInput:
                ready.append(req)
                self.queue.remove(req)
        return ready

    # Silent: a loop over what is not a queue.
    def pop_stale(self):
        for req in list(self.pending):
            self.pending.remove(req)

    # Silent: the indices are collected, but the queue is not rebuilt
    # without them (another list is).
    def pop_marked(self):
        marked = []
        for i, req in enumerate(self.queue):
            if req.done:
                marked.append(i)
        self.history = [e for j, e in enumerate(self.queue) if j not in marked]
        return marked
