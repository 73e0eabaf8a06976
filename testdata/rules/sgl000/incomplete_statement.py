class Receiver:
    def poll(self):
        return self.state +  # want: SGL000 "^syntax error: cannot parse `return self.state \+`$"
