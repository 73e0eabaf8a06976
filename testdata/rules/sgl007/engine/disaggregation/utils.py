"""Index helpers of the disaggregation package."""


def to_pages(kv_indices, page_size):
    # One page index per page: the first token of each page, divided.
    if page_size == 1:
        return kv_indices
    return kv_indices[::page_size] // page_size


def pages_for_rank(pages, rank, world):
    """The contiguous share of pages one context-parallel rank sends."""
    share = len(pages) // world
    if share == 0:
        return pages[:0]
    return pages[rank * share:(rank + 1) * share]


def first_pages(pages, n):
    return pages[:n]
