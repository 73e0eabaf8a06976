x = 1
boom()
