ready = True
)  # want: SGL000 "^syntax error: unmatched `\)`$"
