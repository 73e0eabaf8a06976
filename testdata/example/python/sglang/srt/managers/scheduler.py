"""Code that moves no KV: sglint's KV rules do not look here, whatever the
names say."""

import multiprocessing
from typing import Optional


class Scheduler:
    def __init__(self, engine):
        self.engine = engine
        self.waiting_queue = []
        self.rid_to_req = {}
        self.kind: Optional[str] = None

    def add_request(self, req):
        self.waiting_queue.append(req)
        self.rid_to_req[req.rid] = req

    def send_to_detokenizer(self):
        for req in self.waiting_queue:
            self.engine.push(req.output_ids[-1], dst_mem_kind=self.kind)

    def send_finished(self, rid):
        return self.rid_to_req[rid]


def run_scheduler_process(engine):
    Scheduler(engine).send_to_detokenizer()


def launch(engine):
    multiprocessing.Process(target=run_scheduler_process, args=(engine,)).start()
