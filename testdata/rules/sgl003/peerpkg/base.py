"""The peer table lives in a base class in its own module."""


class PeerTableBase:
    def __init__(self):
        self.peer_layouts = {}
