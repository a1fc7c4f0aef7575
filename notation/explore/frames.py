"""Where a game stands, as the explorer files it: the position's key, its notation, and
the frame its moves are written in.

Without ``--symmetric`` a position is its own frame and a move is its canonical text,
filed under its identity (``Game.event_identity``: Tilewe's spellings of one placement
are one move).
With it, a position is filed under its least image under the board's symmetries
(``Game.least_image``: Tilewe's eight), and the moves from it are written in that image's frame, so
that a game and its mirror image count as one line. A position symmetric in itself (the
empty board) has several transforms onto its least image; a move then takes the least
of its images under all of them, which is the same whichever image of the position the
game was in. Other games have no symmetries: the flag changes nothing for them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from notation.core.game import AnyGame
from notation.tables.keys import digest, position_key


@dataclass(frozen=True, slots=True)
class Place:
    """A position as filed: ``key`` (equal for transpositions), ``notation`` (the
    game's full position notation, in the frame of its moves), and ``frames``: the
    transforms that take the position as played into that frame (none: as played)."""

    key: str
    notation: str
    frames: tuple[str, ...] = ()


def place_of(game: AnyGame, state: Any, symmetric: bool) -> Place:
    """Where ``state`` is filed."""
    text = game.full_position(state)
    if symmetric:  # the least image once, for the key and the frame alike
        least, frames = game.least_image(text)
        return Place(digest(game.timeless_position(least)), least, frames)
    return Place(position_key(game, state, False, text), text)


def move_key(game: AnyGame, event: Any, place: Place) -> str:
    """What a move played from ``place`` is, in its frame (``Game.event_identity``): the
    same for every spelling of one move, so that they count as one."""
    if not place.frames:
        return game.event_identity(event)
    return min(game.event_identity(game.transform_event(name, event)) for name in place.frames)


def move_text(game: AnyGame, event: Any, place: Place) -> str:
    """A move played from ``place``, written in its frame."""
    if not place.frames:
        return game.format_event(event)
    return min(game.format_event(game.transform_event(name, event)) for name in place.frames)
