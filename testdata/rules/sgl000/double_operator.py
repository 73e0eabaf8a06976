status = = "done"  # want: SGL000 "unexpected `=`"
