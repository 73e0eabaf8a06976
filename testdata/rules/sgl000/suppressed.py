# sglint: noqa: SGL000
def broken(:
    pass
