boom()  # want: SGL901 "bang"
