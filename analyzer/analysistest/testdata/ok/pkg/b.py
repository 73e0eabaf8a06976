def f():
    return boom()  # want: SGL901
