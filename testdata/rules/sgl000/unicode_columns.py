# Columns count code points: the finding is at column 14, not at byte 16.
name = ("éé" é)  # want: SGL000 "unexpected `é`"
