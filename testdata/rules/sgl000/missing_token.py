# A token tree-sitter had to invent is reported where it was expected.
def drain(queue):
    for item in :  # want: SGL000 "^syntax error: expected an identifier$"
        queue.put(item)
