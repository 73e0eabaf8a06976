# The region that does not parse is reported at its start; the comment
# inside it is not part of the message.
ready = 1 if  # want: SGL000 "^syntax error: cannot parse `ready = 1 if`$"
