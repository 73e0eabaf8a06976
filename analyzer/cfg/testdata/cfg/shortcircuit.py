# and / or / not decomposed into branches, in conditions and in values.
def both(a, b):
    if a and b:
        use(a, b)


def either_raise(a, b):
    if not a or not b:
        raise RuntimeError("missing")
    use(a, b)


def order(x, descs):
    if x is None or not descs:
        return
    use(x, descs)


def value(a, b):
    y = a and b.c
    return y


def ternary(x):
    z = x.v if x is not None else None
    return z


def walrus(t, k):
    if (v := t.get(k)) is not None and v.ready:
        use(v)


def constants():
    if True:
        a()
    while 1:
        b()
    c()


def nested_paren(a, b, c):
    if (a or (b and not c)):
        use()
