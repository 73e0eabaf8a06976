# Nested functions, lambdas, classes and comprehensions are separate.
@decorator(a and b)
def outer(x, y=default or 1):
    def inner(z=x):
        return z or x

    class Local(Base):
        attr = 1

        def method(self):
            return self.attr

    f = lambda q: q.v if q else None
    ys = [v for v in x if v and v.ok]
    return inner, Local, f, ys
