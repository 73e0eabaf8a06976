"""Senders hold their manager (typed by the constructor's annotation, or
built in place) and read the manager's tables through it, the shape of
every real backend's sender."""
from kvbase import BaseKVSender
from tablepkg.base import PeerTables


class RoomManager(PeerTables):
    def __init__(self, agent):
        super().__init__()
        self.agent = agent
        self.rooms = {}

    def register_room(self, room, info):
        self.rooms[room] = info

    def has_room(self, room):
        return room in self.rooms


class RoomSender(BaseKVSender):
    def __init__(self, mgr: RoomManager, room):
        self.kv_mgr = mgr
        self.room = room

    def send_room(self, pages):
        info = self.kv_mgr.rooms[self.room]  # want: SGL004 "`self.kv_mgr.rooms\[self.room\]` raises KeyError"
        return self.kv_mgr.agent.post(info, pages)

    def send_room_checked(self, pages):
        if self.room not in self.kv_mgr.rooms:
            return None
        return self.kv_mgr.agent.post(self.kv_mgr.rooms[self.room], pages)

    def send_room_if_registered(self, pages):
        if not self.kv_mgr.has_room(self.room):
            return None
        return self.kv_mgr.agent.post(self.kv_mgr.rooms[self.room], pages)

    def send_layout(self, peer, pages):
        return self.kv_mgr.agent.post(self.kv_mgr.peer_layouts[peer], pages)  # want: SGL004 "KeyError"

    def send_layout_checked(self, peer, pages):
        layout = self.kv_mgr.peer_layouts.get(peer)
        if layout is None:
            return None
        return self.kv_mgr.agent.post(self.kv_mgr.peer_layouts[peer], pages)


class OwningSender(BaseKVSender):
    def __init__(self, agent, room):
        self.kv_mgr = RoomManager(agent)
        self.room = room

    def send_room(self, pages):
        return self.kv_mgr.agent.post(self.kv_mgr.rooms[self.room], pages)  # want: SGL004 "KeyError"

    def send_room_checked(self, pages):
        if self.kv_mgr.rooms.get(self.room) is None:
            return None
        return self.kv_mgr.agent.post(self.kv_mgr.rooms[self.room], pages)
