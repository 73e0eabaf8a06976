# The call's parenthesis is never closed: the next statement is swallowed
# into the arguments, and tree-sitter reports `return`. The bracket is the
# place.
class Sender:
    def send(self, req):
        self.queue.put((req, 0))  # closed: silent
        self.queue.put((req, 1)  # want: SGL000 "^syntax error: `\(` was never closed$"
        return req
