total = $  # want: SGL000 "unexpected `\$`"
