"""The Tilewe board as text for people: ranks and files, the colours' letters, who moves."""
from __future__ import annotations

from . import rules
from .events import SIZE
from .pieces import FILES
from .state import COLOR_LETTERS, COLORS, Board

_ANSI = ("\x1b[44;97m", "\x1b[43;30m", "\x1b[41;97m", "\x1b[42;30m")
_RESET = "\x1b[0m"


def render(board: Board, color: bool = False) -> str:
    """The board with rank numbers and file letters, then who moves and the scores."""
    files = "    " + " ".join(FILES)
    lines = [files]
    for y in range(SIZE - 1, -1, -1):
        cells = []
        for x in range(SIZE):
            owner = board.color_at(x + SIZE * y)
            if owner is None:
                cells.append(".")
            elif color:
                cells.append(f"{_ANSI[owner]}{COLOR_LETTERS[owner]}{_RESET}")
            else:
                cells.append(COLOR_LETTERS[owner])
        lines.append(f"{y + 1:>3} {' '.join(cells)} {y + 1}")
    lines.append(files)
    lines.append(f"{status(board)}; scores: {scores(board)}")
    return "\n".join(lines)


def status(board: Board) -> str:
    """Who moves, or who won: the text board's last line and the picture's caption."""
    mover = board.to_move()
    if mover is None:
        winners = " and ".join(COLORS[p] for p in rules.winners(board))
        return f"game over after {board.ply} plies; winner: {winners}"
    return f"ply {board.ply}, {COLORS[mover]} to move"


def scores(board: Board) -> str:
    """Each colour's score, in colour order."""
    return ", ".join(f"{COLORS[p]} {s}" for p, s in enumerate(board.scores()))
