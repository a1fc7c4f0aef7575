"""Text pictures of a Philosophy board for people: space names, tiles and arrows."""
from __future__ import annotations

from .geometry import NAME_AT
from .state import PhilosophyState

ARROWS = {"No": "↑", "Ne": "↗", "Ea": "→", "Se": "↘", "So": "↓", "Sw": "↙", "We": "←", "Nw": "↖"}
_ANSI = {"In": "\x1b[34m", "Te": "\x1b[36m", "Am": "\x1b[33m", "Sa": "\x1b[32m"}
_RESET = "\x1b[0m"


def render(state: PhilosophyState, color: bool = False) -> str:
    """Seven rows of the 7x7 box; a cell is ``SPACE`` when empty, ``OwTt→`` when not."""
    lines = []
    for r in range(7):
        cells = []
        for c in range(7):
            name = NAME_AT.get((r, c))
            if name is None:
                cells.append(" " * 8)
                continue
            tile = state.board.get(name)
            if tile is None:
                cells.append(f"  {name}  ".ljust(8))
                continue
            owner, kind, facing = tile
            text = f"{owner}{kind}{ARROWS[facing]}"
            if color and owner in _ANSI:
                text = f"{_ANSI[owner]}{text}{_RESET}"
            cells.append(f" {text}  ")
        lines.append("".join(cells).rstrip())
    order = " ".join(state.order) or "(nobody yet)"
    lines.append(f"turn order: {order}; respect: {state.respect or 'nobody'}")
    if (now := status(state)) is not None:
        lines.append(now)
    return "\n".join(lines)


def status(state: PhilosophyState) -> str | None:
    """How the game ended, who must choose, or who places next (None before anyone
    joined): the text board's last line and the picture's caption."""
    if state.over:
        return (f"game over: {state.winner} wins by a conclusion" if state.winner
                else "game over: a player left (no winner)")
    if state.pending is not None:
        return f"{state.mover} must choose ({state.pending.kind}): " + " ".join(
            state.pending.options)
    if state.order:
        return f"{state.order[0]} to place"
    return None
