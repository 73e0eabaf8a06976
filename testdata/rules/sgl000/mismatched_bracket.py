ranks = [0, 1)  # want: SGL000 "^syntax error: `\)` does not match `\[`$"
