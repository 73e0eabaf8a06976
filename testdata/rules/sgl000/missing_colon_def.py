# A header without its colon is reported at the end of the header, not at
# the next line where tree-sitter gave up (it took `def poll()` for an
# unexpected `()`).
def ready():  # with its colon: silent
    return 0


def poll()  # want: SGL000 "^syntax error: expected `:`$"
    return 1
