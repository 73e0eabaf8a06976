ready = True
)  # want: SGL000 "unexpected `\)`"
