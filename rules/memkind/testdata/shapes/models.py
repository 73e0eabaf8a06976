"""Two classes share the field name `stage_kind` with different optionality;
`dest_kind` is Optional wherever it is declared."""

from typing import Optional


class Region:
    def __init__(self, kind: str):
        self.stage_kind = kind
        self.dest_kind: Optional[str] = None


class Staging:
    stage_kind: Optional[str] = None
    dest_kind: "str | None" = None
