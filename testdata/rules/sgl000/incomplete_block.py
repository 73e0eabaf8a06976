# The region that does not parse is reported at its start; the comment
# inside it is not part of the message.
def poll(self:  # want: SGL000 "^syntax error: cannot parse `def poll\(self:…`$"
    pass
