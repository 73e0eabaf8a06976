"""The peer table lives in a base class in its own module."""
from kvbase import BaseKVManager

class PeerTableBase(BaseKVManager):
    def __init__(self):
        self.peer_layouts = {}
