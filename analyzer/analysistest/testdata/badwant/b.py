boom()  # want: sgl901
boom()  # want: SGL901 "unterminated
boom()  # want: SGL901 "(["
