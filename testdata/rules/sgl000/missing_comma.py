# Two arguments without a comma between them: the second one is unexpected.
def send(conn, req):
    conn.send_multipart(req.room req.payload)  # want: SGL000 "^syntax error: unexpected `req`$"
