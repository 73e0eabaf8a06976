# if / elif / else, and nested ifs whose branches all exit.
def classify(x):
    if x is None:
        return 0
    elif x > 10:
        y = 1
    elif x > 5:
        y = 2
    else:
        y = 3
    return y


def all_exit(a, b):
    if a:
        if b:
            raise ValueError("b")
        else:
            return 1
    use(a)


def dead_code():
    return 1
    unreachable()
