class Receiver:
    def poll(self):
        if self.ready == 0:  # with its colon: silent
            return 0
        if self.ready == 1  # want: SGL000 "^syntax error: expected `:`$"
            return 2
        return 3
