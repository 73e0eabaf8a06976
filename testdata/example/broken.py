def send_kv(self, req):
    self.transfer(req.room, req.indices
