"""Code that moves no KV, shaped like a scheduler, a tokenizer and their
processes: send_* methods, queues that are empty in normal operation, a
process target and threads. Nothing here derives from the KV bases, so no
KV rule looks at it."""

import multiprocessing
import threading
from typing import Optional


class Req:
    def __init__(self, rid):
        self.rid = rid
        self.output_ids = []
        self.encoder_lens: Optional[list] = None

    def register_output(self, token):
        self.output_ids.append(token)


class Scheduler:
    def __init__(self, engine, pool):
        self.engine = engine
        self.pool = pool
        self.waiting_queue = []
        self.cache_descs = []
        self.kind: Optional[str] = None
        self.rid_to_req = {}
        threading.Thread(target=self._event_loop, daemon=True).start()

    def _add_request(self, req):
        self.waiting_queue.append(req)
        self.rid_to_req[req.rid] = req

    def _add_request_then_encode(self, rid, lens):
        req = Req(rid)
        self.rid_to_req[rid] = req
        req.encoder_lens = lens

    def register_cache(self, ptrs):
        for ptr in ptrs:
            self.cache_descs.append(self.engine.register_memory(ptr))

    def _event_loop(self):
        while True:
            self.send_to_detokenizer()
            self.send_cache_page()

    def send_to_detokenizer(self):
        for req in self.waiting_queue:
            self.engine.push(req.output_ids[-1])

    def send_cache_page(self):
        first = self.cache_descs[0]
        return self.pool.write(first, dst_mem_kind=self.kind)

    def send_finished(self, rid):
        req = self.rid_to_req[rid]
        return req.output_ids[0]


class TokenizerManager:
    def __init__(self, sock):
        self.sock = sock
        self.rid_to_state = {}

    def add_state(self, rid, state):
        self.rid_to_state[rid] = state

    def _send_one_request(self, rid):
        state = self.rid_to_state[rid]
        self.sock.send(state)


def run_scheduler_process(engine, pool):
    sched = Scheduler(engine, pool)
    if sched.kind is None:
        raise RuntimeError("KV memory descriptors are empty on prefill side")
    sched.send_cache_page()


def launch(engine, pool):
    multiprocessing.Process(target=run_scheduler_process, args=(engine, pool)).start()
