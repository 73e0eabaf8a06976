# while/for with else, break, continue.
def scan(items):
    for it in items:
        if it is None:
            continue
        if it.done:
            break
        work(it)
    else:
        nothing_broke()
    after()


def spin(q):
    while not q.empty():
        q.get()
    else:
        drained()


def forever(t, k):
    while True:
        if k in t:
            break
        sleep()
    return t[k]


async def agen(xs):
    async for x in xs:
        await x
