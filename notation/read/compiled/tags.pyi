"""The types of ``tags.c`` (see there)."""
from notation.core.ast import Pos, Tag

def opening_tags(text: str, first_line: int, tag_type: type[Tag], pos_type: type[Pos], /
                 ) -> tuple[list[Tag], int, int] | None: ...
