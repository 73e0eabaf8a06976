# tree-sitter accepts an empty block, which CPython rejects ("expected an
# indented block"): a documented false negative of SGL000.
if True:
pass
