# Brackets that match stay silent; SGL000 reports only the first error.
pairs = [(0, 1)]
ranks = [0, 1)  # want: SGL000 "^syntax error: `\)` does not match `\[`$"
