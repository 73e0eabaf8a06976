# try/except/else/finally: exception edges, dispatch, finally copies.
def full(x):
    try:
        a = f(x)
        b = g(a)
    except (KeyError, ValueError) as e:
        log(e)
        raise
    except OSError:
        return None
    else:
        h(b)
    finally:
        cleanup()
    return b


def finally_only(x):
    try:
        if x is None:
            raise ValueError("x")
    finally:
        release()
    use(x)


def return_through_finally():
    try:
        return compute()
    finally:
        done()


def loop_finally(items):
    for it in items:
        try:
            if it.skip:
                continue
            if it.stop:
                break
            work(it)
        finally:
            unlock()


def bare(x):
    try:
        x.go()
    except:
        pass
    except ValueError:
        never()


def nested(t, k):
    try:
        try:
            v = t[k]
        except KeyError:
            v = None
        finally:
            note()
    except Exception:
        raise RuntimeError("outer")
    return v
