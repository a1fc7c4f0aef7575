"""Where a game stands, as the explorer files it: the position's key, its notation, and
the frame its moves are written in.

Without ``--symmetric`` a position is its own frame and a move is written in its one
canonical spelling (``Game.canonical_event``, what ``fmt --canonical`` writes), filed under
its identity (``Game.event_identity``: Tilewe's spellings of one placement are one move).
With it, a position is filed under its least image under the board's symmetries
(``Game.least_image``: Tilewe's eight), and the moves from it are written in that image's frame, so
that a game and its mirror image count as one line. A position symmetric in itself (the
empty board) has several transforms onto its least image; a move then takes the least
of its images under all of them, which is the same whichever image of the position the
game was in; it is written in the canonical spelling on the image's board. Other games
have no symmetries: the flag changes nothing for them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from notation.core.game import AnyGame
from notation.tables.keys import digest, digests, position_key


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
        return _least_place(game, text)
    return Place(position_key(game, state, False, text), text)


def places_of(game: AnyGame, texts: list[str], symmetric: bool) -> list[Place]:
    """:func:`place_of` for the full positions ``texts``, their keys made at once."""
    if symmetric:
        return [_least_place(game, text) for text in texts]
    timeless = game.timeless_position
    return list(map(Place, digests(list(map(timeless, texts))), texts))


def _least_place(game: AnyGame, text: str) -> Place:
    least, frames = game.least_image(text)
    return Place(digest(game.timeless_position(least)), least, frames)


def move_key(game: AnyGame, event: Any, place: Place) -> str:
    """What a move played from ``place`` is, in its frame (``Game.event_identity``): the
    same for every spelling of one move, so that they count as one."""
    if not place.frames:
        return game.event_identity(event)
    return min(game.event_identity(game.transform_event(name, event)) for name in place.frames)


def move_text(game: AnyGame, event: Any, place: Place) -> str:
    """A move played from ``place`` (``event``: its canonical spelling as played), written
    in its frame: the image :func:`move_key` files it under, in the canonical spelling on
    that image's board (read from the place's notation), as ``fmt --canonical`` would write
    the transformed game's move. One text for one key, however the games spelled it."""
    if not place.frames:
        return game.format_event(event)
    identity = game.event_identity
    image = min((game.transform_event(name, event) for name in place.frames), key=identity)
    return game.format_event(game.canonical_event(game.read_position(place.notation), image))
