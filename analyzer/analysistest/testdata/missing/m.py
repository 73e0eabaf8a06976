quiet()  # want: SGL901
boom()  # want: SGL901 SGL901
