"""The Tilewe move value type and its notation ``[Piece][Rotation]-[Contact][Target]``."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from notation.core.errors import NotationError

from .pieces import (
    CANONICAL, FILES, ORIENTATION_INDEX, ORIENTATION_NAMES, PIECE_INDEX, PIECE_NAMES,
    cell_name, orientation,
)

SIZE = 20
BOARD_CORNERS: tuple[int, ...] = (0, SIZE - 1, SIZE * (SIZE - 1), SIZE * SIZE - 1)


def square_name(square: int) -> str:
    """Board tile index ``x + 20*y`` -> ``"a1"`` .. ``"t20"``."""
    return f"{FILES[square % SIZE]}{square // SIZE + 1}"


_TILE = re.compile(r"([a-t])(1[0-9]|20|[1-9])\Z")


def parse_square(text: str) -> int:
    """``"k10"`` -> 189; raises :class:`NotationError` for anything else."""
    m = _TILE.match(text)
    if not m:
        raise NotationError(f"{text!r} is not a board tile (a1 to t20)")
    return FILES.index(m.group(1)) + SIZE * (int(m.group(2)) - 1)


class Move(NamedTuple):
    """Place ``piece`` in ``orientation`` so its ``contact`` cell lands on ``target``.

    ``orientation`` is always canonical: an alias spelling is folded at parse
    time, so equal moves compare equal. ``contact`` is ``(x, y)`` inside the
    oriented piece; ``target`` is the board tile index ``x + 20*y``. A named
    tuple: immutable, hashable and cheap to build (legal-move lists are long).
    """

    piece: int
    orientation: int
    contact: tuple[int, int]
    target: int

    def __str__(self) -> str:
        return (f"{PIECE_NAMES[self.piece]}{ORIENTATION_NAMES[self.orientation]}-"
                f"{cell_name(self.contact)}{square_name(self.target)}")

    @property
    def piece_name(self) -> str:
        return PIECE_NAMES[self.piece]

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read one move; strict: anything ill-formed raises :class:`NotationError`."""
        m = MOVE_SHAPE.match(text)
        if not m:
            raise NotationError(diagnose(text))
        return _build(*m.groups())


# Strict form. The grammar's MOVE terminal uses the same pattern.
MOVE_SHAPE = re.compile(
    r"(O1|I2|I3|L3|O4|I4|L4|Z4|T4|F5|I5|L5|N5|P5|T5|U5|V5|W5|X5|Y5|Z5)"
    r"(nf|ef|sf|wf|n|e|s|w)-([a-t](?:1[0-9]|20|[1-9]))([a-t](?:1[0-9]|20|[1-9]))\Z")
# Loose form, only to explain what is wrong with a rejected word.
_LOOSE = re.compile(r"([A-Za-z]?[0-9]?)([a-z]*)-([a-z]*[0-9]*)([a-z]*[0-9]*)(.*)\Z", re.S)


def _build(piece_name: str, rotation: str, contact_name: str, target_name: str) -> Move:
    piece = PIECE_INDEX[piece_name]
    oriented = orientation(piece, ORIENTATION_INDEX[rotation])
    x, y = FILES.index(contact_name[0]), int(contact_name[1:]) - 1  # at most 2 digits
    if (x, y) not in oriented.contacts:
        shown = f"{piece_name}{rotation}"
        if rotation != oriented.name:
            shown += f" (the same cells as {piece_name}{oriented.name})"
        if x >= oriented.width or y >= oriented.height:
            why = "is outside the piece"
        elif (x, y) not in oriented.cells:
            why = "is not a cell of the piece"
        else:
            why = "is not a contact tile (it has two opposite or three neighbours)"
        contacts = " ".join(cell_name(c) for c in oriented.contacts)
        raise NotationError(f"contact {contact_name} of {shown} {why}; its contact tiles are {contacts}")
    return Move(piece, CANONICAL[piece][ORIENTATION_INDEX[rotation]], (x, y),
                parse_square(target_name))


def _spellings() -> dict[tuple[str, str, str], tuple[int, int, tuple[int, int]]]:
    """Every valid (piece, rotation, contact) spelling, aliases included."""
    table = {}
    for piece, piece_name in enumerate(PIECE_NAMES):
        for rotation, rotation_name in enumerate(ORIENTATION_NAMES):
            oriented = orientation(piece, rotation)
            for contact in oriented.contacts:
                table[(piece_name, rotation_name, cell_name(contact))] = (
                    piece, oriented.index, contact)
    return table


_SPELLINGS = _spellings()
_SPELLING_TEXT = {f"{p}{r}-{c}": found for (p, r, c), found in _SPELLINGS.items()}
_SQUARES = {square_name(s): s for s in range(SIZE * SIZE)}


def read_move(text: str) -> Move:
    """Build a move from text the grammar's MOVE terminal matched (the hot path).

    The terminal fixed the shape: piece (2), rotation (1-2), "-", contact
    (a letter and one or two digits), target. Every valid spelling of
    piece+rotation+contact is one key of a table.
    """
    split = 6 if text[3] == "-" else 7  # where the contact's first digit ends
    found = _SPELLING_TEXT.get(text[:split])
    if found is None or text[split] <= "9":  # no such spelling, or a 2-digit contact
        return Move.parse(text)
    return Move(found[0], found[1], found[2], _SQUARES[text[split:]])


def diagnose(text: str) -> str:
    """Say precisely why ``text`` is not a Tilewe move."""
    m = _LOOSE.match(text)
    if not m or m.group(5):
        return (f"{text!r} is not a Tilewe move; expected [Piece][Rotation]-[Contact][Target] "
                f"such as F5e-a2d4")
    piece, rotation, contact, target, _ = m.groups()
    if piece not in PIECE_INDEX:
        return f"unknown piece {piece!r} in {text!r}; pieces are {' '.join(PIECE_NAMES)}"
    if rotation not in ORIENTATION_INDEX:
        return (f"unknown rotation {rotation!r} in {text!r}; rotations are "
                f"{' '.join(ORIENTATION_NAMES)}")
    if not _TILE.match(contact):
        return f"contact {contact!r} in {text!r} is not a tile name such as a1 or c3"
    if not _TILE.match(target):
        return f"target {target!r} in {text!r} is off the board (tiles are a1 to t20, no leading zeros)"
    return f"{text!r} is not a Tilewe move"  # pragma: no cover - the strict form matched


@lru_cache(maxsize=1)
def canonical_words() -> re.Pattern[str]:
    """Moves in canonical spelling separated by single spaces (every contact a contact tile)."""
    prefixes = sorted({f"{PIECE_NAMES[p]}{ORIENTATION_NAMES[o]}-{cell_name(c)}"
                       for p, o, c in _SPELLINGS.values()}, key=len, reverse=True)
    move = f"(?:{'|'.join(prefixes)})(?:{_TILE.pattern[:-2]})"
    return re.compile(f"(?:{move})(?: {move})*")


#: Words already found canonical: at most every canonical move (about 124,000), so
#: the set is bounded by the game, not by the archive.
_KNOWN_CANONICAL: set[str] = set()


def are_canonical(words: list[str]) -> bool:
    """Whether every word is a move in canonical spelling (set lookups for words seen before)."""
    distinct = set(words)
    if distinct <= _KNOWN_CANONICAL:
        return True
    new = distinct - _KNOWN_CANONICAL
    if canonical_words().fullmatch(" ".join(new)) is None:
        return False
    _KNOWN_CANONICAL.update(new)
    return True
