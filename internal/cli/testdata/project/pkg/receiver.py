class KVReceiver:
    def poll(self):
        return self.state
