def drain(queue):
    for item in :  # noqa: SGL000
        queue.put(item)
