# tree-sitter accepts Python 2's print statement, which CPython rejects
# ("Missing parentheses in call to 'print'"): SGL000 is not a syntax check,
# a documented false negative. Python or ruff reports it.
print "ready"
