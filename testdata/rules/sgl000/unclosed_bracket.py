# An unclosed bracket is reported at the bracket, as CPython does, though
# tree-sitter gives up only at the next line.
ranks = [0, 1  # want: SGL000 "^syntax error: `\[` was never closed$"
room = 3
