"""The types of ``routes.c`` (see there)."""
from typing import Sequence

def set_tables(through: Sequence[Sequence[Sequence[int]]],
               onward: Sequence[Sequence[Sequence[int]]], to_goal: Sequence[Sequence[int]],
               side_starts: Sequence[Sequence[int]], partner: Sequence[Sequence[Sequence[int]]],
               /) -> None: ...
def open_route(tiles: Sequence[tuple[int, int] | None], side: int, /
               ) -> tuple[tuple[int, int, int], ...] | None: ...
