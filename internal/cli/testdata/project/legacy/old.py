print "python 2"
x = = 1
