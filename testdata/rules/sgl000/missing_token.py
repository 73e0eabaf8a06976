# A token tree-sitter had to invent is reported where it was expected.
def drain(queue):
    for item in :  # want: SGL000 "^syntax error: missing identifier$"
        queue.put(item)
