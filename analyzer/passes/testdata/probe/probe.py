# Fixture for the facts probe rule: every sink(x) whose argument is not
# known to be non-None is reported.


class Sender:
    def send(self, info):
        if info.kind is None:
            raise ValueError("missing kind")
        sink(info.kind)

    def send_unchecked(self, info):
        sink(info.kind)  # want: SGL999 "info.kind"

    def send_one_branch(self, info, fast):
        if fast:
            assert info.kind is not None
        sink(info.kind)  # want: SGL999

    def send_alias(self, info):
        kind = info.kind
        if kind is None:
            return
        sink(info.kind)


def module_function(x):
    helper = lambda: sink(x)  # want: SGL999
    if x is not None:
        return [sink(x)]
    sink(x)  # want: SGL999
