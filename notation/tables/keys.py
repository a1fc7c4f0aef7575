"""Position keys: equal for the same position however it was reached (transpositions),
and, on request, under the board's symmetries (Tilewe's eight).

A key is a 64-bit BLAKE2b digest (16 hex digits) of the game's whole position notation
(``full_position``: whose turn, hands and all, not only the board), taken without the
parts that only count time where a game's notation has such a counter
(``Game.timeless_position``):

* Sanguine: the turn number (field 4) is left out;
* Philosophy: the count of placements is kept only as ``0`` or ``+`` (the rules ask
  whether there was a first placement, never how many);
* Nomic: the round number of the label is left out;
* Tilewe and Flows have no counter: their notation is hashed as it is.

With ``symmetric``, the position is taken in its image that sorts first
(``Game.least_image``: a Tilewe board under its rotations and reflections; hands and
turn do not move with the board).
"""
from __future__ import annotations

import hashlib
from array import array
from collections.abc import Sequence
from typing import Any, Callable

from notation.core.game import AnyGame
from notation.read.texts import LENGTH, Texts

hex_digests: Callable[[list[str]], list[str]] | None
hex_digest_texts: Callable[[bytes, bytes], bytes] | None
try:  # the keys compiled (compiled/columns.c), where the install could build it
    from .compiled.columns import hex_digest_texts, hex_digests
except ImportError:  # pragma: no cover - a machine without a C compiler
    hex_digests = hex_digest_texts = None
#: Whether keys are made by the compiled module (``notation --version`` says).
COMPILED = hex_digests is not None


def identity_of(game: AnyGame, symmetric: bool = False) -> Callable[[str], str]:
    """What of a full position notation makes it the same position (``symmetric``: under
    the board's symmetries too), as one function for a game's every ply."""
    timeless = game.timeless_position
    if not symmetric:
        return timeless
    least = game.least_image
    return lambda text: least(timeless(text))[0]


def digest(text: str) -> str:
    """A position key from a position's identity (:func:`identity_of`)."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def digests(texts: list[str]) -> list[str]:
    """:func:`digest` of each text (compiled where built: ``compiled/columns.c``)."""
    if hex_digests is not None:
        return hex_digests(texts)
    return list(map(digest, texts))


#: A key's length in a :class:`Texts` of keys.
_KEY_LENGTH = array(LENGTH, [16]).tobytes()


def position_keys(game: AnyGame, positions: Sequence[str],
                  symmetric: bool = False) -> Sequence[str]:
    """:func:`digest` of each position's identity, for a game's every ply at once: as
    :class:`Texts` when the positions come so and are their own identity (compiled:
    no string made for either), else as a list."""
    if (isinstance(positions, Texts) and hex_digest_texts is not None and not symmetric
            and not game.counts_time):
        return Texts(hex_digest_texts(positions.data, positions.lengths),
                     _KEY_LENGTH * len(positions))
    return digests(list(map(identity_of(game, symmetric), positions)))


def position_key(game: AnyGame, state: Any, symmetric: bool = False,
                 position: str | None = None) -> str:
    """The key of ``state``'s position (see the module's docstring); ``position``: its
    full position notation when the caller has it (no second rendering)."""
    text = position if position is not None else game.full_position(state)
    return digest(identity_of(game, symmetric)(text))
