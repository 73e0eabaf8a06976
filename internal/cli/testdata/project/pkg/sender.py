class KVSender:
    def send(self, req):
        self.engine.transfer(req.room req.payload)
