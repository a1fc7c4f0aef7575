"""Position keys: equal for the same position however it was reached (transpositions),
and, on request, for Tilewe's eight board symmetries.

A key is a 64-bit BLAKE2b digest (16 hex digits) of the game's whole position notation
(``full_position``: whose turn, hands and all, not only the board), taken without the
parts that only count time, where a game's notation has such a counter:

* Sanguine: the turn number (field 4) is left out;
* Philosophy: the count of placements is kept only as ``0`` or ``+`` (the rules ask
  whether there was a first placement, never how many);
* Nomic: the round number of the label is left out;
* Tilewe and Flows have no counter: their notation is hashed as it is.

With ``symmetric``, a Tilewe board is taken in the one of its eight images (rotations
and reflections) whose text sorts first; hands and turn do not move with the board.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any, Callable

from notation.core.game import AnyGame
from notation.games.tilewe.symmetry import TRANSFORMS

_ROUND = re.compile(r"^round \d+")
_RUN = re.compile(r"[1-9][0-9]?|[byrg]")


def _sanguine(text: str) -> str:
    fields = text.split(" ")
    return " ".join(fields[:3] + fields[4:]) if len(fields) == 14 else text


def _philosophy(text: str) -> str:
    fields = text.split(" ")
    if len(fields) >= 3 and fields[2].isdigit():
        fields[2] = "0" if fields[2] == "0" else "+"
    return " ".join(fields)


def _nomic(text: str) -> str:
    return _ROUND.sub("round", text, count=1)


#: How each game's notation sheds its counters (a game not named has none).
TIMELESS: dict[str, Callable[[str], str]] = {
    "sanguine": _sanguine, "philosophy": _philosophy, "nomic": _nomic}


def _tilewe_grid(ranks: str) -> list[list[str]]:
    """TPN ranks (rank 20 first) as ``grid[y][x]``, y = rank - 1."""
    rows = []
    for rank in ranks.split("/"):
        row: list[str] = []
        for item in _RUN.findall(rank):
            row.extend(["."] * int(item) if item.isdigit() else [item])
        rows.append(row)
    rows.reverse()
    return rows


def _tilewe_ranks(grid: list[list[str]]) -> str:
    """``grid[y][x]`` written back as TPN ranks."""
    ranks = []
    for row in reversed(grid):
        text = "".join(row)
        ranks.append(re.sub(r"\.+", lambda m: str(len(m.group())), text))
    return "/".join(ranks)


def least_tilewe_image(text: str) -> str:
    """A Tilewe position with its board in the image that sorts first."""
    ranks, _, rest = text.partition(" ")
    grid = _tilewe_grid(ranks)
    size = len(grid)
    images = []
    for transform in TRANSFORMS.values():
        image = [["."] * size for _ in range(size)]
        for y, row in enumerate(grid):
            for x, cell in enumerate(row):
                if cell != ".":
                    tx, ty = transform(x, y)
                    image[ty][tx] = cell
        images.append(_tilewe_ranks(image))
    return f"{min(images)} {rest}"


def position_key(game: AnyGame, state: Any, symmetric: bool = False,
                 position: str | None = None) -> str:
    """The key of ``state``'s position (see the module's docstring); ``position``: its
    position notation when the caller has it and the game's full notation is that one
    (most games: no second rendering per ply)."""
    text = position if position is not None else game.full_position(state)
    text = TIMELESS.get(game.name, str)(text)
    if symmetric and game.name == "tilewe":
        text = least_tilewe_image(text)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()
