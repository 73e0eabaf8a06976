# An unclosed bracket is reported where the parser gave up: at the first
# token that cannot continue the list (a known limit: not at the `[`).
ranks = [0, 1
room = 3  # want: SGL000 "unexpected `room`"
