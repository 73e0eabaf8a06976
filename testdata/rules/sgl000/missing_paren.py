def poll(:  # want: SGL000 "^syntax error: missing `\)`$"
    pass
