def poll(:  # want: SGL000 "^syntax error: `\(` was never closed$"
    pass
