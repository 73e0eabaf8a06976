"""The prefill side's inflight queue: the loop keeps the requests still
transferring (undone) and makes them the queue again; the others go on
(done) or end."""
import logging

from kvbase import KVPoll

logger = logging.getLogger(__name__)


def prepare_abort(req, message):
    req.finished = message


class SchedulerDisaggregationPrefillMixin:
    # Flagged: a request still bootstrapping is logged, not kept.
    def process_inflight_queue(self):
        done, undone = [], []
        for req, poll in zip(self.disagg_prefill_inflight_queue, self.polls()):
            if poll in [KVPoll.WaitingForInput, KVPoll.Transferring]:
                undone.append(req)
            elif poll == KVPoll.Bootstrapping:  # want: SGL008 "`req` is left out of `self.disagg_prefill_inflight_queue` here: this path reaches the end of the iteration without keeping it in `undone`"
                logger.info("still bootstrapping: %s", req.rid)
            elif poll == KVPoll.Success:
                done.append(req)
            elif poll == KVPoll.Failed:
                prepare_abort(req, "transfer failed")
                done.append(req)
        self.disagg_prefill_inflight_queue = undone
        return done

    # Silent: the same chain keeps a request still bootstrapping.
    def process_inflight_queue_kept(self):
        done, undone = [], []
        for req, poll in zip(self.disagg_prefill_inflight_queue, self.polls()):
            if poll in [KVPoll.WaitingForInput, KVPoll.Transferring]:
                undone.append(req)
            elif poll == KVPoll.Bootstrapping:
                logger.info("still bootstrapping: %s", req.rid)
                undone.append(req)
            elif poll == KVPoll.Success:
                done.append(req)
            elif poll == KVPoll.Failed:
                prepare_abort(req, "transfer failed")
                done.append(req)
        self.disagg_prefill_inflight_queue = undone
        return done

    # Flagged: a request another rank did not agree on is skipped, and so
    # dropped.
    def process_inflight_consensus(self, rids_to_check):
        done, undone = [], []
        for req, poll in zip(self.disagg_prefill_inflight_queue, self.polls()):
            if req.rid not in rids_to_check:
                continue  # want: SGL008 "this path leaves the iteration without keeping it in `undone`"
            if poll == KVPoll.Success:
                done.append(req)
            else:
                undone.append(req)
        self.disagg_prefill_inflight_queue = undone
        return done

    # Silent: the same request is kept for the next round.
    def process_inflight_consensus_kept(self, rids_to_check):
        done, undone = [], []
        for req, poll in zip(self.disagg_prefill_inflight_queue, self.polls()):
            if req.rid not in rids_to_check:
                undone.append(req)
                continue
            if poll == KVPoll.Success:
                done.append(req)
            else:
                undone.append(req)
        self.disagg_prefill_inflight_queue = undone
        return done

    # Silent: a chain over the poll's states, without else, is taken to
    # cover the states an inflight request can be in.
    def process_inflight_states(self):
        done, undone = [], []
        for req, poll in zip(self.disagg_prefill_inflight_queue, self.polls()):
            if poll in [KVPoll.WaitingForInput, KVPoll.Transferring]:
                undone.append(req)
            elif poll == KVPoll.Success:
                done.append(req)
            elif poll == KVPoll.Failed:
                prepare_abort(req, "transfer failed")
                done.append(req)
        self.disagg_prefill_inflight_queue = undone
        return done

    def handle_pending(self, req, poll):
        if poll == KVPoll.Failed:
            prepare_abort(req, "bootstrap failed")
            return False
        return poll == KVPoll.WaitingForInput

    # Silent: the condition's helper aborts a failed request; the others
    # are kept.
    def process_inflight_pending(self):
        undone = []
        for req, poll in zip(self.disagg_prefill_inflight_queue, self.polls()):
            if self.handle_pending(req, poll):
                undone.append(req)
            elif poll != KVPoll.Failed:
                undone.append(req)
        self.disagg_prefill_inflight_queue = undone

    def polls(self):
        return [r.disagg_kv_sender.poll() for r in self.disagg_prefill_inflight_queue]
