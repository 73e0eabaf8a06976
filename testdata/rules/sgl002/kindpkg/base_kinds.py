"""Base class in its own module declaring an Optional attribute."""

from typing import Optional
from kvbase import BaseKVManager

class KindDefaults(BaseKVManager):
    def __init__(self):
        self.host_kind: Optional[str] = None
        self.device_kind = "VRAM"

    def adopt_host_kind(self, kind):
        self.host_kind = kind
