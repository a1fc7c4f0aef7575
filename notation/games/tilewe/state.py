"""The Tilewe state: the board, the players' hands, whose turn it is; and its queries.

Turn order is tracked lazily: after a move the next player in cyclic order
is only a *candidate*; a move that fits the candidate proves the candidate
can move, so the full "can this player move at all?" search runs only when
a move does not fit, or when someone asks who is to move (:meth:`Board.to_move`).
"""
from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from notation.core.game import state_repr
from notation.read.texts import Texts

from . import COLORS as COLORS
from . import bitboard
from .events import SIZE, square_name
from .pieces import PIECE_NAMES

compiled_board_text: Callable[[list[int]], str] | None
compiled_line_texts: Callable[[list[int], list[int], list[int], list[int], list[int], str],
                              tuple[bytes, bytes]] | None
try:  # the board's text compiled (compiled/text.c), where the install could build it
    from .compiled.text import board_text as compiled_board_text
    from .compiled.text import line_texts as compiled_line_texts
except ImportError:  # pragma: no cover - a machine without a C compiler
    compiled_board_text = compiled_line_texts = None
#: Whether positions are written by the compiled module (``notation --version`` says).
COMPILED = compiled_board_text is not None

compiled_copy_board: Callable[[Any], Any] | None
try:  # a board copied in one call (compiled/rules.c), where the install built it
    from .compiled.rules import copy_board as compiled_copy_board
except ImportError:  # pragma: no cover - a machine without a C compiler
    compiled_copy_board = None

#: What a search for a player's moves finds (``Board.next_player``).
Found = TypeVar("Found")

#: The colours' letters in the position notation (TPN, see ``position.py``).
COLOR_LETTERS = "byrg"
#: A board's bits, one character a square (the highest square first).
_BITS = f"0{SIZE * SIZE}b"
#: Empty squares (a zero byte) shown as ".".
_EMPTY = bytes.maketrans(b"\x00", b".")
#: One rank's bits.
_RANK = (1 << SIZE) - 1
#: ``object.__new__``: a board made without ``__init__`` (``Board.copy``).
_new_board = object.__new__


@lru_cache(maxsize=1 << 12)
def _hand_text(used: int) -> str:
    return f"{ALL_PIECES & ~used:x}"


@lru_cache(maxsize=None)
def _mark_table(mark: str) -> bytes:
    """A colour's bits as bytes: its mark where it has a tile, a zero byte elsewhere."""
    return bytes.maketrans(b"01", b"\x00" + mark.encode("ascii"))
ALL_PIECES = (1 << bitboard.N_PIECES) - 1


class Board:
    """A Tilewe position with its players' hands and whose turn it is.

    Masks are bits of ints (see ``bitboard.py``); the rules (``rules.py``)
    change them.
    """

    __slots__ = ("players", "occupied", "own", "adj", "diag", "used", "turn", "turn_known",
                 "out", "over", "ply", "last_mover", "last", "starts", "last_piece", "owners",
                 "scoring")

    def __init__(self, players: int = 4) -> None:
        if not 1 <= players <= 4:
            raise ValueError("Tilewe is for 1 to 4 players")
        self.players = players
        self.occupied = 0
        self.own = [0] * players      # tiles of each colour
        self.adj = [0] * players      # tiles edge-adjacent to each colour
        self.diag = [0] * players     # tiles diagonal to each colour
        self.used = [0] * players     # bit i set: piece i placed
        self.turn = 0                 # candidate player to move
        self.turn_known = False       # True once `turn` is known to have a move
        self.out = 0                  # bit p set: player p can never move again
        self.over = False
        self.ply = 0
        self.last_mover: int | None = None
        self.last = 0                 # the tiles of the last placement (for pictures)
        # Blokus's rules, set from tags by ``blokus.py`` (these defaults are Tilewe's):
        self.starts = [bitboard.CORNERS] * players  # where each colour's first contact may go
        self.last_piece = [-1] * players  # each colour's latest piece (Blokus's O1 bonus)
        self.owners: tuple[int, ...] = tuple(range(1, players + 1))  # player of each colour
        self.scoring = "tiles"

    def copy(self) -> Board:
        """An independent copy: each list a new one (every other field is an int, a bool,
        a text or a tuple). ``Position.push`` copies the board at every move: in one
        compiled call where the install built it (a fifth of the time), else written out,
        slot by slot (a loop over the slots cost three times as much, measured); a test
        holds both to that loop, :meth:`copied_slot_by_slot`."""
        if compiled_copy_board is not None and self.__class__ is Board:
            copied: Board = compiled_copy_board(self)
            return copied
        return self.copied_slots()

    def copied_slots(self) -> Board:
        """:meth:`copy` in Python."""
        other = _new_board(Board)
        other.players, other.occupied, other.turn = self.players, self.occupied, self.turn
        other.own, other.adj, other.diag = self.own[:], self.adj[:], self.diag[:]
        other.used, other.starts = self.used[:], self.starts[:]
        other.last_piece = self.last_piece[:]
        other.turn_known, other.out, other.over = self.turn_known, self.out, self.over
        other.ply, other.last_mover, other.last = self.ply, self.last_mover, self.last
        other.owners, other.scoring = self.owners, self.scoring
        return other

    def copied_slot_by_slot(self) -> Board:
        """:meth:`copy`'s definition: every slot copied, each list as a new list."""
        other = _new_board(Board)
        for name in Board.__slots__:
            value = getattr(self, name)
            setattr(other, name, value[:] if isinstance(value, list) else value)
        return other

    def __repr__(self) -> str:
        return state_repr("tilewe", self.position)

    # -- queries --------------------------------------------------------------
    def scores(self) -> list[int]:
        return [m.bit_count() for m in self.own]

    def color_at(self, square: int) -> int | None:
        bit = 1 << square
        if not self.occupied & bit:
            return None
        return next(p for p, m in enumerate(self.own) if m & bit)

    def remaining(self, player: int) -> list[int]:
        used = self.used[player]
        return [i for i in range(bitboard.N_PIECES) if not used >> i & 1]

    def anchors(self, player: int) -> int:
        """Tiles where ``player``'s next piece may put its contact tile."""
        if not self.used[player]:
            return self.starts[player] & ~self.occupied
        return bitboard.anchors(self.occupied, self.adj[player], self.diag[player], False)

    def blocked(self, player: int) -> int:
        """Tiles ``player`` may not cover: taken, or edge-adjacent to the colour."""
        return self.occupied | self.adj[player]

    def can_move(self, player: int) -> bool:
        """Whether ``player`` has at least one legal move (stops at the first found)."""
        if self.out >> player & 1:
            return False
        return bitboard.fits(self.blocked(player), self.used[player], self.anchors(player))

    def to_move(self) -> int | None:
        """The player to move, skipping players who cannot; None when the game is over."""
        if self.over:
            return None
        if self.turn_known:
            return self.turn
        found = self.next_player(self.can_move)
        return None if found is None else found[0]

    def next_player(self, moves: Callable[[int], Found]) -> tuple[int, Found] | None:
        """The first player, from the one whose turn it is, whose ``moves`` (a search for a
        move) find something, recorded as the player to move; the players passed over
        cannot move and are out. None when nobody can: the game is over. (``to_move``
        asks whether a player can move; a random game asks for the moves themselves.)"""
        if self.over:
            return None
        p = self.turn
        for _ in range(self.players):
            if not self.out >> p & 1:
                found = moves(p)
                if found:
                    self.turn, self.turn_known = p, True
                    return p, found
                self.out |= 1 << p
            p = (p + 1) % self.players
        self.over = True
        return None

    # -- views ----------------------------------------------------------------
    def ranks(self, marks: str) -> list[str]:
        """The board's ranks from 20 down, each 20 characters: ``marks[p]`` for a tile of
        player ``p``, ``.`` for an empty one. Each colour's bits become a byte string at
        once (``format`` and ``translate``, in C) and the colours are OR-ed together, as
        they never share a tile: every replay's JSON and position asks for this."""
        board = 0
        for player, mask in enumerate(self.own):
            if mask:
                bits = format(mask, _BITS).encode("ascii")
                board |= int.from_bytes(bits.translate(_mark_table(marks[player])), "big")
        cells = board.to_bytes(SIZE * SIZE, "big").translate(_EMPTY)[::-1].decode("ascii")
        return [cells[SIZE * y:SIZE * (y + 1)] for y in range(SIZE - 1, -1, -1)]

    def board_text(self) -> str:
        """The board in TPN, ranks from 20 down (compiled where built, else each colour's
        tiles at once, then each rank's run lengths: :func:`written_rank`)."""
        if compiled_board_text is not None:
            return compiled_board_text(self.own)
        return self.written_board_text()

    def written_board_text(self) -> str:
        """:meth:`board_text` in Python alone: the definition the compiled one is held to."""
        return "/".join(map(written_rank, self.ranks(COLOR_LETTERS)))

    def drawing(self) -> tuple[str, str]:
        """The TPN fields that do not need whose turn it is: the board and the hands."""
        return self.board_text(), ",".join(map(_hand_text, self.used))

    @staticmethod
    def position_of(drawing: tuple[str, str], mover: int | None) -> str:
        """TPN from :meth:`drawing` and the player to move (None: the game is over)."""
        return f"{drawing[0]} {'-' if mover is None else COLOR_LETTERS[mover]} {drawing[1]}"

    def position(self) -> str:
        """The position in TPN: ranks from 20 down, the player to move, the hands."""
        return self.position_of(self.drawing(), self.to_move())

    def as_json(self) -> dict[str, Any]:
        """The ``state`` object of ``replay --json``."""
        rows = self.ranks("0123")
        return {
            "board": rows,
            "players": self.players,
            "to_move": self.to_move(),
            "ply": self.ply,
            "pieces_left": [[PIECE_NAMES[i] for i in self.remaining(p)]
                            for p in range(self.players)],
        }

    def cells(self) -> dict[str, str]:
        """Every tile ("" when empty, so diffs keep board order), who moves, the hands."""
        out = {}
        for s in range(SIZE * SIZE):
            owner = self.color_at(s)
            out[square_name(s)] = "" if owner is None else COLORS[owner]
        mover = self.to_move()
        out["to move"] = "nobody (game over)" if mover is None else COLORS[mover]
        for p in range(self.players):
            out[f"{COLORS[p]} pieces left"] = " ".join(PIECE_NAMES[i] for i in self.remaining(p))
        return out

    def facts(self) -> dict[str, int]:
        """Each colour's score and pieces left, for ``stats``."""
        out: dict[str, int] = {}
        for (score_key, left_key), tiles, used in zip(_FACT_KEYS, self.own, self.used):
            out[score_key] = tiles.bit_count()
            out[left_key] = (ALL_PIECES & ~used).bit_count()
        return out


#: Each colour's facts' names (:meth:`Board.facts`), in colour order.
_FACT_KEYS = tuple((f"{colour} score", f"{colour} pieces left") for colour in COLORS)


#: Runs of empty tiles and their lengths, the longest first.
_RUNS = tuple(("." * n, str(n)) for n in range(SIZE, 0, -1))


def written_rank(cells: str) -> str:
    """A rank of 20 cells (``.`` for an empty tile) as TPN writes it, each run of empty
    tiles as its length: the longest runs replaced first, so each is replaced whole (in
    C: three times quicker than a regex calling back for each run, and ranks are too
    varied in an archive for a cache to pay). Ranks already joined by ``/`` may come
    together: no run crosses a ``/``."""
    for run, length in _RUNS:
        if run in cells:
            cells = cells.replace(run, length)
    return cells


#: A move's piece (its first field).
_PIECE = itemgetter(0)


def replayed_columns(board: Board, play: Callable[[Any], None], moves: Iterable[Any],
                     replay_all: Callable[[Board, list[Any]], tuple[list[int], list[int]] | None]
                     | None = None) -> tuple[list[str | None], Sequence[str]]:
    """Each move played on ``board`` with ``play`` (the rules), and ``Game.line_columns``'
    movers and positions: the colour that played each move, and ``board``'s TPN before
    the first move and after each.

    Each position is written once the next move is played: that move's player is the
    one to move (the rules proved it placing it), where asking the board would search
    for a player who can move. The last position asks the board. Compiled, the play
    keeps only each move's colour, tiles and piece, and ``line_texts`` writes the whole
    line into one buffer (:class:`~notation.read.texts.Texts`), writing again only the
    ranks each move covers; in Python, :func:`written_positions` does as much. The
    moves are played by ``replay_all`` where given (the compiled rules, all at once,
    giving each ply's player and tiles, or None: then one by one here)."""
    if compiled_line_texts is None:
        movers: list[str | None] = []
        texts = []
        for player, text in written_positions(board, play, moves):
            movers.append(None if player is None else COLORS[player])
            texts.append(text)
        return movers, texts
    own, used = board.own[:], board.used[:]
    moves = list(moves)
    played = None if replay_all is None else replay_all(board, moves)
    if played is not None:
        placed, masks = played
    else:
        placed, masks = [], []
        place, mask = placed.append, masks.append
        for move in moves:
            play(move)
            place(board.last_mover)  # type: ignore[arg-type]  # (a move was placed)
            mask(board.last)
    last = board.to_move()
    data, lengths = compiled_line_texts(own, used, placed, masks, list(map(_PIECE, moves)),
                                        "-" if last is None else COLOR_LETTERS[last])
    return [None, *map(COLORS.__getitem__, placed)], Texts(data, lengths)


def written_positions(board: Board, play: Callable[[Any], None],
                      moves: Iterable[Any]) -> Iterator[tuple[int | None, str]]:
    """:func:`replayed_positions` in Python alone, each changed rank written again."""
    cells = board.ranks(COLOR_LETTERS)[::-1]  # rank 1 first
    ranks = [written_rank(rank) for rank in cells]
    hands = [_hand_text(used) for used in board.used]
    used = board.used
    drawing, mover = ("/".join(ranks[::-1]), ",".join(hands)), None
    for move in moves:
        play(move)
        placed = board.last_mover
        assert placed is not None  # (a move was just placed)
        yield mover, Board.position_of(drawing, placed)
        mask, letter = board.last, COLOR_LETTERS[placed]
        for y in range(((mask & -mask).bit_length() - 1) // SIZE,
                       (mask.bit_length() - 1) // SIZE + 1):
            tiles = mask >> SIZE * y & _RANK
            if tiles:
                rank = cells[y]
                while tiles:
                    low = tiles & -tiles
                    x = low.bit_length() - 1
                    rank = f"{rank[:x]}{letter}{rank[x + 1:]}"
                    tiles ^= low
                cells[y] = rank
                ranks[y] = written_rank(rank)
        hands[placed] = _hand_text(used[placed])
        drawing, mover = ("/".join(ranks[::-1]), ",".join(hands)), placed
    yield mover, Board.position_of(drawing, board.to_move())
