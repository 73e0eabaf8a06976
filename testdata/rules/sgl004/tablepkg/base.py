"""Peer tables initialised and filled in a base class in its own module."""
from kvbase import BaseKVManager

class PeerTables(BaseKVManager):
    def __init__(self):
        self.peer_layouts = {}
        self.prepared = {}

    def register_peer(self, name, layout):
        self.peer_layouts[name] = layout

    def register_prepared(self, name, handle):
        self.prepared[name] = handle
