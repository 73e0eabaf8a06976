"""Tables a manager's own threads read but only receivers fill, through the
manager they hold (`self.kv_mgr.expected[room] = n`); and keys gathered
from a table into a list before a loop looks them up."""
import threading

from kvbase import BaseKVManager, BaseKVReceiver


class ResponseManager(BaseKVManager):
    def __init__(self, agent, replies):
        self.agent = agent
        self.replies = replies
        self.expected = {}
        self.status = {}
        self.pool = {}
        threading.Thread(target=self.reply_loop, daemon=True).start()
        threading.Thread(target=self.checked_reply_loop, daemon=True).start()
        threading.Thread(target=self.heartbeat_loop, daemon=True).start()
        threading.Thread(target=self.dead_peer_loop, daemon=True).start()

    def reply_loop(self):
        while True:
            room, arrived = self.replies.get()
            if room in self.status:
                if arrived == self.expected[room]:  # want: SGL004 "ends transfer thread `ResponseManager.reply_loop`"
                    self.status[room] = "done"

    def checked_reply_loop(self):
        while True:
            room, arrived = self.replies.get()
            if room in self.status and room in self.expected:
                if arrived == self.expected[room]:
                    self.status[room] = "done"

    def heartbeat_loop(self):
        while True:
            addr = self.agent.dead_peer()
            stale = [k for k in self.pool if k.startswith(addr)]
            for k in stale:
                self.agent.close(self.pool[k])
                del self.pool[k]

    def dead_peer_loop(self):
        while True:
            for k in self.agent.dead_peers():
                self.agent.close(self.pool[k])  # want: SGL004 "KeyError"
                del self.pool[k]


class ResponseReceiver(BaseKVReceiver):
    def __init__(self, mgr: ResponseManager, room, peer, count):
        self.kv_mgr = mgr
        self.room = room
        self.kv_mgr.status[room] = "waiting"
        self.kv_mgr.expected[room] = count
        self.kv_mgr.pool[peer] = mgr.agent.connect(peer)
