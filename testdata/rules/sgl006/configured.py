"""A transfer engine call nothing in the project guards: a source only
when configured as raising ([tool.sglint.kv-scope] raising-calls, see
rules/kvescape's TestConfiguredRaisingCalls)."""
from engine_like import TransferEngine

from kvbase import BaseKVManager, BaseKVReceiver


class EngineManager(BaseKVManager):
    def __init__(self):
        self.engine = TransferEngine()


class EngineReceiver(BaseKVReceiver):
    def __init__(self, mgr: EngineManager, room):
        self.kv_mgr = mgr
        self.room = room

    def send_metadata(self, pages):
        self.kv_mgr.engine.submit(self.room, pages)
