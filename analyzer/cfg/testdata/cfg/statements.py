# with, match/case, assert, del, imports.
def ctx(path):
    with open(path) as f, lock:
        data = f.read()
    return data


def dispatch(cmd):
    match cmd:
        case ["go", target] if target:
            go(target)
        case Point(x=0) | None:
            origin()
        case other:
            fallback(other)
    done()


def check(x, t, k):
    assert x is not None, "x must be set"
    assert k in t
    del t[k]
    import os.path as osp
    return osp
