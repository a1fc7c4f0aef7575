"""Blokus's own rules as Tilewe tags, for games played the classic way (Pentobi's files).

Tilewe lets a first piece take any free board corner, gives each colour its own player and
scores tiles placed. Three tags say otherwise; without them nothing changes:

* ``[Corners "fixed"]``: each colour's first piece covers its own corner (its contact tile
  on it): blue a20, yellow t20, red t1, green a1. Default ``"any"``.
* ``[Owners "1 2 1 2"]``: the player (1, 2, ...) who holds each colour, in colour order;
  ``shared`` for a colour the players take turns with, Pentobi's Blokus Three-Player rule:
  the shared colour's n-th piece (from 0) is played by player ``n mod P + 1`` of the ``P``
  players. Default: each colour its own player (``"1 2 3 4"``).
* ``[Scoring "blokus"]``: each colour scores its tiles placed, +15 when all 21 pieces are
  placed, +5 more when the monomino (O1) was the last of them (Blokus's count of squares
  left, shifted by the 89 squares a colour has, so differences are the same). A player
  scores the sum of the colours they hold; a shared colour scores for nobody. Default
  ``"tiles"`` (tiles placed).

``[Scores]`` stays one number per colour (under the record's scoring); the winners are the
players with the top total (all of them on a tie), and ``[Result]`` names the colours the
winners hold alone (``"blue red"``: player 1 of a two-player game won).
"""
from __future__ import annotations

from collections.abc import Mapping

from notation.core.errors import TagError, shorten

from .events import parse_square
from .state import ALL_PIECES, Board

#: Each colour's own corner under ``[Corners "fixed"]``, in colour order.
CORNER_NAMES = ("a20", "t20", "t1", "a1")
CORNERS = tuple(1 << parse_square(name) for name in CORNER_NAMES)
SHARED = 0
ALL_PLACED_BONUS = 15
MONOMINO_LAST_BONUS = 5
MONOMINO = 0


def apply_tags(board: Board, tags: Mapping[str, str]) -> None:
    """Set ``board``'s Blokus rules from the record's tags (:class:`TagError` for a bad one)."""
    corners = tags.get("Corners", "any")
    if corners == "fixed":
        board.starts = list(CORNERS[:board.players])
    elif corners != "any":
        raise TagError("Corners", f"[Corners \"{shorten(corners)}\"]: \"any\" or \"fixed\"")
    if "Owners" in tags:
        board.owners = read_owners(tags["Owners"], board.players)
    scoring = tags.get("Scoring", "tiles")
    if scoring not in ("tiles", "blokus"):
        raise TagError("Scoring", f"[Scoring \"{shorten(scoring)}\"]: \"tiles\" or \"blokus\"")
    board.scoring = scoring
    board.turn_known, board.out, board.over = False, 0, False  # who can move: ask again


def rules_text(board: Board) -> str:
    """The rules ``board`` is played under as its tags set them, one spelling however they
    were written (a default given or left out alike): ``corners any owners 1 2 3 4 scoring
    tiles`` (``Game.setup_identity``: TPN does not hold them)."""
    corners = "fixed" if board.starts == list(CORNERS[:board.players]) else "any"
    owners = " ".join("shared" if owner == SHARED else str(owner) for owner in board.owners)
    return f"corners {corners} owners {owners} scoring {board.scoring}"


def read_owners(text: str, colours: int) -> tuple[int, ...]:
    """``"1 2 3 shared"`` -> (1, 2, 3, 0); every player from 1 up holds a colour alone."""
    words = text.split()
    bad = TagError("Owners", f"[Owners \"{shorten(text)}\"]: one player number (1, 2, ...) "
                             f"or \"shared\" for each of the {colours} colours")
    if len(words) != colours or not set(words) <= {"shared", "1", "2", "3", "4"}:
        raise bad
    owners = tuple(SHARED if w == "shared" else int(w) for w in words)
    players = max(owners, default=0)
    if players == 0 or set(owners) - {SHARED} != set(range(1, players + 1)):
        raise bad
    if SHARED in owners and players < 2:
        raise bad
    return owners


def player_count(board: Board) -> int:
    return max(board.owners)


def holder(board: Board, colour: int) -> int:
    """The player (from 1) who plays ``colour``'s next piece."""
    owner = board.owners[colour]
    if owner != SHARED:
        return owner
    return board.used[colour].bit_count() % player_count(board) + 1


def colour_points(board: Board) -> list[int]:
    """Each colour's score under the board's scoring."""
    tiles = board.scores()
    if board.scoring == "tiles":
        return tiles
    out = []
    for colour, placed in enumerate(tiles):
        points = placed
        if board.used[colour] == ALL_PIECES:
            points += ALL_PLACED_BONUS
            if board.last_piece[colour] == MONOMINO:
                points += MONOMINO_LAST_BONUS
        out.append(points)
    return out


def player_points(board: Board) -> list[int]:
    """Each player's total, player 1 first (a shared colour counts for nobody)."""
    totals = [0] * player_count(board)
    for colour, points in enumerate(colour_points(board)):
        owner = board.owners[colour]
        if owner != SHARED:
            totals[owner - 1] += points
    return totals


def winning_colours(board: Board) -> list[int]:
    """The colours held alone by the players with the top total, in colour order."""
    totals = player_points(board)
    top = max(totals)
    return [c for c, owner in enumerate(board.owners) if owner != SHARED
            and totals[owner - 1] == top]

