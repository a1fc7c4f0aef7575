"""The types of ``tags.c`` (see there)."""

def opening_tags(text: str, /
                 ) -> tuple[list[tuple[str, str, int, int]], int, int] | None: ...
