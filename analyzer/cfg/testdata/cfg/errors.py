# A partial tree: code inside ERROR nodes is skipped.
def broken(x):
    if x is None:
        raise
    y = foo(1, 2,, 3)
    if $x:
        pass
    return y


def fine(x):
    if x:
        return x
    return None
