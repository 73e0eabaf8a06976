"""Lists a manager takes from its KV args rather than filling itself. A
rank whose stage holds no layers of a kind (no state layers of a hybrid
model) gets an empty list for that kind; the receiver below shows the code
knows it, by reporting a fallback when the list is empty. Uses that fail on
an empty list are reported on KV paths; loops that rightly move nothing,
fields nothing tests, and fields tested only to decide whether to register
them, are not."""
from kvbase import BaseKVManager, BaseKVReceiver, BaseKVSender


class StageStateManager(BaseKVManager):
    def __init__(self, args, engine):
        self.kv_args = args
        self.engine = engine
        self._register_local_buffers()

    def _register_local_buffers(self):
        # Registering only what is there is caution, not evidence.
        if self.kv_args.extra_data_ptrs and self.kv_args.extra_data_lens:
            self.engine.batch_register(self.kv_args.extra_data_ptrs, self.kv_args.extra_data_lens)
        self.engine.batch_register(self.kv_args.state_data_ptrs, self.kv_args.state_data_lens)

    def send_state(self, dst_ptr, index):
        src = self.kv_args.state_data_ptrs[0] + index  # want: SGL001 "`self.kv_args.state_data_ptrs` may be empty here .*indexing it raises IndexError"
        return self.engine.write(src, dst_ptr)

    def send_state_checked(self, dst_ptr, index):
        if not self.kv_args.state_data_ptrs:
            return 0
        src = self.kv_args.state_data_ptrs[0] + index
        return self.engine.write(src, dst_ptr)

    def send_state_len_checked(self, dst_ptr, index):
        if len(self.kv_args.state_data_ptrs) == 0:
            return 0
        return self.engine.write(self.kv_args.state_data_ptrs[-1] + index, dst_ptr)

    def send_state_each(self, dst_ptrs, index):
        # A loop over an empty list moves nothing, which is right on a stage
        # without state layers.
        moved = 0
        for src, dst in zip(self.kv_args.state_data_ptrs, dst_ptrs):
            moved += self.engine.write(src + index, dst)
        return moved

    def send_state_share(self, total_bytes):
        return total_bytes // len(self.kv_args.state_data_ptrs)  # want: SGL001 "dividing by its length raises ZeroDivisionError"

    def send_state_share_checked(self, total_bytes):
        if not self.kv_args.state_data_ptrs:
            return 0
        return total_bytes // len(self.kv_args.state_data_ptrs)

    def send_state_alias(self, dst_ptr):
        ptrs = self.kv_args.state_data_ptrs
        return self.engine.write(ptrs[0], dst_ptr)  # want: SGL001 "`ptrs` \(an alias of `self.kv_args.state_data_ptrs`\) may be empty"

    def send_state_alias_checked(self, dst_ptr):
        ptrs = self.kv_args.state_data_ptrs
        if not ptrs:
            return 0
        return self.engine.write(ptrs[0], dst_ptr)

    def send_state_strict(self, dst_ptr):
        # A raise on an empty KV-args list is an error escaping the entry
        # (SGL006), not a readiness check of SGL001 (b).
        return self.engine.write(self._state_base(), dst_ptr)

    def _state_base(self):
        if not self.kv_args.state_data_ptrs:
            raise RuntimeError("no state buffers on this rank")
        return self.kv_args.state_data_ptrs[0]

    def send_gpu(self, dst_ptr):
        # Nothing in the project tests gpu_ids for emptiness.
        return self.engine.write(self.kv_args.gpu_ids[0], dst_ptr)

    def send_extra(self, dst_ptr):
        return self.engine.write(self.kv_args.extra_data_ptrs[0], dst_ptr)


class StageStateSender(BaseKVSender):
    def __init__(self, mgr: StageStateManager, room):
        self.kv_mgr = mgr
        self.room = room

    def send(self, dst_ptr):
        last = self.kv_mgr.kv_args.state_data_ptrs[-1]  # want: SGL001 "`self.kv_mgr.kv_args.state_data_ptrs` may be empty"
        return self.kv_mgr.engine.write(last, dst_ptr)

    def send_metadata(self, dst_ptr):
        # The caller's test covers the helper it calls.
        if self.kv_mgr.kv_args.state_data_ptrs:
            return self._write_first_state(dst_ptr)
        return 0

    def _write_first_state(self, dst_ptr):
        return self.kv_mgr.engine.write(self.kv_mgr.kv_args.state_data_ptrs[0], dst_ptr)


class StageStateReceiver(BaseKVReceiver):
    def __init__(self, mgr: StageStateManager):
        self.kv_mgr = mgr

    def init(self, prefill_dp_rank):
        # The fallback for a rank without state buffers: the evidence that
        # the list can be empty, and a use the rule accepts.
        item_len = self.kv_mgr.kv_args.state_item_lens[0] if self.kv_mgr.kv_args.state_item_lens else 0
        return self.kv_mgr.engine.announce(prefill_dp_rank, item_len)

    def send_metadata(self, dst_ptr):
        item_len = self.kv_mgr.kv_args.state_item_lens[0]  # want: SGL001 "`self.kv_mgr.kv_args.state_item_lens` may be empty .*as `StageStateReceiver.init` does"
        return self.kv_mgr.engine.announce(dst_ptr, item_len)


class StateReport:
    """Not a KV class: no send path starts here."""

    def __init__(self, args):
        self.kv_args = args

    def send_summary(self):
        return self.kv_args.state_data_ptrs[0]
