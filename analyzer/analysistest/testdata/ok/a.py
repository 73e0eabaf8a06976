boom()  # want: SGL901
boom(1); boom(2)  # want: SGL901 "boom\(2\)" SGL901 `boom\(1\)`
quiet()
boom()  # noqa: SGL901
s = "# want: SGL901"
x = [
    boom(),  # want: SGL901 "^call of boom\(\)$"
]
boom("q")  # want: SGL901 "boom\(\"q\"\)"
