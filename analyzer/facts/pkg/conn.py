from pkg.base import BaseKVSender


class RingSender(BaseKVSender):
    def __init__(self):
        self.peer_infos = {}

    def add_peer(self, name, info):
        self.peer_infos[name] = info

    def send_chunk(self, name, chunk):
        info = self.peer_infos[name]
        return info.write(chunk)
