from dataclasses import dataclass
from typing import Optional


@dataclass
class PeerInfo:
    endpoint: str
    mem_kind: Optional[str] = None


class BaseManager:
    def __init__(self, args):
        self.args = args
        self.peers = {}

    def add_peer(self, name, info: PeerInfo):
        self.peers[name] = info
