"""The prefill scheduler's disaggregation mixin: it sends each request's
KV cache chunk by chunk as prefill runs. A non-last chunk sends only
whole pages, so a chunk can hold no new page."""
from kvbase import KVPoll

from engine.disaggregation.utils import first_pages, pages_for_rank, to_pages


class SchedulerDisaggregationPrefillMixin:
    def process_batch_result_disagg_prefill(self, batch, result):
        for req in batch.reqs:
            self.send_kv_chunk(req, last_chunk=True)
            self.send_other_attr_tested(req, last_chunk=True)
            self.send_checked(req, last_chunk=True)
            self.send_size_checked(req, last_chunk=True)
            self.send_aux_only(req, last_chunk=True)
            self.send_marked_success(req, last_chunk=True)
            self.send_backend_decides(req, last_chunk=True)
            self.send_pages_for(req)
            self.send_rank_share(req)
            self.send_rank_share_checked(req)
            self.send_first_pages(req)
            self.send_after_prefix(req)
            self.send_whole_request(req)

    def process_prefill_chunk(self):
        if self.chunked_req:
            self.send_kv_chunk(self.chunked_req)

    # Flagged: the cursor slice can be empty and goes out as a chunk.
    def send_kv_chunk(self, req, last_chunk=False):
        page_size = self.page_size
        start = req.start_send_idx
        end = len(req.fill_ids)
        if not last_chunk:
            end = end - end % page_size  # only whole pages before the last chunk
        kv_indices = self.req_to_token[req.pool_idx, start:end].cpu().numpy()
        req.start_send_idx = end
        page_indices = to_pages(kv_indices, page_size)
        req.disagg_kv_sender.send(page_indices)  # want: SGL007 "`page_indices` can be empty here \(it slices from `req.start_send_idx`"

    # Flagged: the test is of another object's attribute of the same name,
    # not of the chunk.
    def send_other_attr_tested(self, req, last_chunk=False):
        start = req.start_send_idx
        end = len(req.fill_ids)
        kv_indices = self.req_to_token[req.pool_idx, start:end].cpu().numpy()
        req.start_send_idx = end
        page_indices = to_pages(kv_indices, self.page_size)
        if not self.cache.page_indices:
            return
        req.disagg_kv_sender.send(page_indices)  # want: SGL007 "`page_indices` can be empty here"

    # Silent: an empty chunk is skipped.
    def send_checked(self, req, last_chunk=False):
        start = req.start_send_idx
        end = len(req.fill_ids)
        if not last_chunk:
            end = end - end % self.page_size
        kv_indices = self.req_to_token[req.pool_idx, start:end]
        req.start_send_idx = end
        page_indices = to_pages(kv_indices, self.page_size)
        if len(page_indices) == 0:
            return
        req.disagg_kv_sender.send(page_indices)

    # Silent: the same test written on the array's size, before the
    # conversion.
    def send_size_checked(self, req, last_chunk=False):
        start = req.start_send_idx
        end = len(req.fill_ids)
        kv_indices = self.req_to_token[req.pool_idx, start:end].numpy()
        req.start_send_idx = end
        if kv_indices.size == 0:
            return
        req.disagg_kv_sender.send(to_pages(kv_indices, self.page_size))

    # Silent: an empty chunk sends only the metadata on the last chunk.
    def send_aux_only(self, req, last_chunk=False):
        start = req.start_send_idx
        end = len(req.fill_ids)
        kv_indices = self.req_to_token[req.pool_idx, start:end]
        req.start_send_idx = end
        if not len(kv_indices):
            if last_chunk:
                req.disagg_kv_sender.send_metadata_only()
            return
        req.disagg_kv_sender.send(kv_indices)

    # Silent: a 0-page last chunk is marked Success before it goes out.
    def send_marked_success(self, req, last_chunk=False):
        start = req.start_send_idx
        end = len(req.fill_ids)
        kv_indices = self.req_to_token[req.pool_idx, start:end]
        req.start_send_idx = end
        if last_chunk:
            req.disagg_kv_sender.kv_mgr.update_status(req.bootstrap_room, KVPoll.Success)
            req.disagg_kv_sender.send(kv_indices)

    # Silent: the backend is asked whether an empty chunk goes out.
    def send_backend_decides(self, req, last_chunk=False):
        start = req.start_send_idx
        end = len(req.fill_ids)
        kv_indices = self.req_to_token[req.pool_idx, start:end]
        req.start_send_idx = end
        if not req.disagg_kv_sender.should_send_kv_chunk(len(kv_indices), last_chunk):
            return
        req.disagg_kv_sender.send(kv_indices)

    # Flagged: the producer's cursor slice is the evidence.
    def _pages_for(self, req):
        start = req.sent_pages
        end = len(req.fill_ids) // self.page_size
        req.sent_pages = end
        return req.pages[start:end]

    def send_pages_for(self, req):
        page_indices = self._pages_for(req)
        req.disagg_kv_sender.send(page_indices)  # want: SGL007 "it slices from `req.sent_pages`, which `SchedulerDisaggregationPrefillMixin._pages_for` moves"

    # Flagged: a context-parallel rank's share can be empty.
    def send_rank_share(self, req):
        pages = pages_for_rank(req.pages, self.cp_rank, self.cp_size)
        req.disagg_kv_sender.send(pages)  # want: SGL007 "an empty slice on line 15 of `pages_for_rank`"

    # Silent: the same share, skipped when empty.
    def send_rank_share_checked(self, req):
        pages = pages_for_rank(req.pages, self.cp_rank, self.cp_size)
        if pages.size == 0:
            return
        req.disagg_kv_sender.send(pages)

    # Silent: a plain slice is no evidence that it can be empty.
    def send_first_pages(self, req):
        pages = first_pages(req.pages, req.num_new_pages)
        req.disagg_kv_sender.send(pages)

    # Flagged: the decode side's prefix cache may hold the whole chunk.
    def send_after_prefix(self, req):
        kv_indices = self.req_to_token[req.pool_idx, len(req.prefix_indices):len(req.fill_ids)]
        req.disagg_kv_sender.send(kv_indices)  # want: SGL007 "starts after the prefix-cache hit `len\(req.prefix_indices\)`"

    # Silent: the whole request in one send, no cursor.
    def send_whole_request(self, req):
        kv_indices = self.req_to_token[req.pool_idx, 0:len(req.fill_ids)]
        req.disagg_kv_sender.send(kv_indices)


class PrefillHelper:
    """Not a disaggregation queue: nothing calls it on a KV path."""

    def send_kv_chunk(self, req):
        start = req.start_send_idx
        kv_indices = req.pages[start:req.end]
        req.start_send_idx = req.end
        req.disagg_kv_sender.send(kv_indices)
