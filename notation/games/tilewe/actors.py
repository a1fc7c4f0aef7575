"""A Tilewe program's answer in Pentobi's words: the cells its piece covers
(``a1,a2,b2``), as ``pentobi-gtp`` answers ``genmove``, read as the placement that covers
them (:mod:`.pentobi.cells`: the canonical spelling of Pentobi's files)."""
from __future__ import annotations

import re

from .events import Move
from .pentobi.cells import placement, read_cells
from .state import Board

#: Cells, as Pentobi writes a move: a column letter and a row number, comma-separated.
_CELLS = re.compile(r"[a-tA-T](?:[1-9]|1[0-9]|20)(?:,[a-tA-T](?:[1-9]|1[0-9]|20))*")


def read_answer(board: Board, text: str, /) -> Move | None:
    """The placement covering the cells ``text`` lists; None for text that lists no
    cells (a move in the notation); :class:`NotationError` for cells that are no piece."""
    if _CELLS.fullmatch(text) is None:
        return None
    mover = board.to_move()
    return placement(read_cells([text]), board.anchors(mover) if mover is not None else 0)


__all__ = ["read_answer"]
