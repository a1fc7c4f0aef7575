"""The Tilewe move, read from and written as ``[Piece][Rotation]-[Contact][Target]``.

The move's shape is written once, in the grammar's MOVE terminal, whose
named groups are its parts; :meth:`Move.parse` takes a move apart with that
pattern. The hot path (:func:`read_move`) looks whole spellings up in tables
built from the writer's own output, so it reads what ``str(move)`` writes.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from notation.core.errors import NotationError
from notation.read.grammars import terminal_pattern
from notation.core.events import event_repr

from .pieces import (
    FILES, ORIENTATION_INDEX, ORIENTATION_NAMES, PIECE_INDEX, PIECE_NAMES, Cell,
    cell_name, orientation,
)

SIZE = 20
"""Tiles on a side of the board."""


def square_name(square: int) -> str:
    """Board tile index ``x + 20*y`` -> ``"a1"`` .. ``"t20"``."""
    return f"{FILES[square % SIZE]}{square // SIZE + 1}"


#: Every tile name and its index: tile names are a closed set of 400 words.
_SQUARES: dict[str, int] = {square_name(s): s for s in range(SIZE * SIZE)}


def parse_square(text: str) -> int:
    """``"k10"`` -> 189; raises :class:`NotationError` for anything else."""
    square = _SQUARES.get(text)
    if square is None:
        raise NotationError(f"{text!r} is not a board tile (a1 to t20)")
    return square


class Move(NamedTuple):
    """Place ``piece`` in ``orientation`` so its ``contact`` cell lands on ``target``.

    ``orientation`` is always canonical: an alias spelling is folded at parse
    time, so equal moves compare equal. ``contact`` is ``(x, y)`` inside the
    oriented piece; ``target`` is the board tile index ``x + 20*y``. A named
    tuple: immutable, hashable and cheap to build (legal-move lists are long).
    """

    piece: int
    orientation: int
    contact: Cell
    target: int

    def __str__(self) -> str:
        return (f"{PIECE_NAMES[self.piece]}{ORIENTATION_NAMES[self.orientation]}-"
                f"{cell_name(self.contact)}{square_name(self.target)}")

    def __repr__(self) -> str:
        """Like the notation, ``Move('F5e-a2d4')``, not the raw integers of the tuple."""
        return event_repr(self)

    @property
    def piece_name(self) -> str:
        return PIECE_NAMES[self.piece]

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read one move; strict: anything ill-formed raises :class:`NotationError`."""
        m = terminal_pattern("tilewe.lark", "MOVE").fullmatch(text)
        if m is None or m.start("piece"):  # no match, or an event number in front
            raise NotationError(diagnose(text))
        return _build(m["piece"], m["rotation"], m["contact"], m["target"])


#: A loose form, only to explain what is wrong with a word that is not a move.
_LOOSE = re.compile(r"([A-Za-z]?[0-9]?)([a-z]*)-([a-z]*[0-9]*)([a-z]*[0-9]*)(.*)\Z", re.S)


def _build(piece_name: str, rotation: str, contact_name: str, target_name: str) -> Move:
    """The move of well-shaped parts, or why the contact is no contact tile of the piece."""
    piece = PIECE_INDEX[piece_name]
    oriented = orientation(piece, ORIENTATION_INDEX[rotation])
    x, y = FILES.index(contact_name[0]), int(contact_name[1:]) - 1
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
        raise NotationError(f"contact {contact_name} of {shown} {why}; its contact tiles are "
                            f"{contacts}")
    return Move(piece, oriented.index, (x, y), parse_square(target_name))


def _spellings() -> dict[str, tuple[int, int, Cell]]:
    """Every valid ``piece+rotation-contact`` text, aliases included -> (piece, canonical
    orientation, contact)."""
    table = {}
    for piece, piece_name in enumerate(PIECE_NAMES):
        for rotation_name in ORIENTATION_NAMES:
            oriented = orientation(piece, ORIENTATION_INDEX[rotation_name])
            for contact in oriented.contacts:
                table[f"{piece_name}{rotation_name}-{cell_name(contact)}"] = (
                    piece, oriented.index, contact)
    return table


_SPELLINGS = _spellings()
#: Every valid spelling's text -> (piece, canonical orientation, contact): what
#: :func:`read_move` reads (the compiled rules are given it too).
SPELLINGS = _SPELLINGS
#: ``tuple.__new__``: builds a Move from its four fields without the Python-level
#: ``Move.__new__`` the named tuple defines (one frame less per move read).
_new_tuple = tuple.__new__


def read_move(text: str) -> Move:
    """Build a move from text the grammar's MOVE terminal matched (the hot path).

    Every valid spelling of piece, rotation and contact is a key of a table,
    6 or 7 characters long as the writer spells them (a contact lies inside a
    5x5 box: one digit); the rest is the target's name. Anything else (a
    contact that is not a contact tile, say) is read by :meth:`Move.parse`,
    which says what is wrong.
    """
    split = 6 if text[3] == "-" else 7
    found = _SPELLINGS.get(text[:split])
    if found is None or text[split] <= "9":  # no such spelling, or a 2-digit contact
        return Move.parse(text)
    return _new_tuple(Move, (*found, _SQUARES[text[split:]]))


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
    if contact not in _SQUARES:
        return f"contact {contact!r} in {text!r} is not a tile name such as a1 or c3"
    if target not in _SQUARES:
        return f"target {target!r} in {text!r} is off the board (tiles are a1 to t20, no leading zeros)"
    return f"{text!r} is not a Tilewe move"  # pragma: no cover - the strict form matched


@lru_cache(maxsize=1)
def canonical_moves() -> frozenset[str]:
    """Every move in canonical spelling (about 124,000: 309 contact spellings, 400 targets).

    Built on first use (``notation.tilewe.canonical_moves()``), from the writer's own
    spellings.
    """
    prefixes = {f"{PIECE_NAMES[p]}{ORIENTATION_NAMES[o]}-{cell_name(c)}"
                for p, o, c in _SPELLINGS.values()}
    return frozenset(prefix + square for prefix in prefixes for square in _SQUARES)
