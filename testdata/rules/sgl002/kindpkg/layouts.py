"""Registration info a decode peer sends once; some fields are filled later by
a preparation step on the prefill side, so they start as None."""

import dataclasses
from typing import List, Optional


@dataclasses.dataclass
class PeerLayout:
    name: str
    region_ptrs: List[int]
    region_kinds: List[str]
    device: int = 0
    relayout: bool = False
    dest_kind: Optional[str] = None
    dest_kinds: Optional[List[str]] = None
