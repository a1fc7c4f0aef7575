"""The Tilewe rules: the start from tags, playing a move, legal moves, the end and results;
and the seats and figures of a board (the Rules, Scores and FastApply parts)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache, partial
from operator import attrgetter
from typing import Any


from notation.core.ast import tag_values
from notation.core.protocols import RecordView
from notation.core.errors import NotationError, RuleError, TagError, shorten
from notation.core.limits import is_whole
from notation.core.protocols import Result

from . import bitboard, blokus, position
from .bitboard import PLACING, REFERENCE
from .events import SIZE, SPELLINGS, Move, read_move, square_name
from .pieces import SPELLING_NUMBERS, Cell, orientation, spelling_number
from . import PLAYERS
from .state import COLORS, Board


def start(record: RecordView | Mapping[str, str], /) -> Board:
    """The board a record (or its tags alone: Pentobi's reader and writer have no record)
    starts from: its ``[Position]`` (TPN) if set up, else empty for its ``[Players]`` (4
    by default), under its Blokus tags (``blokus.py``); a bad value raises
    :class:`TagError`."""
    tags = record if isinstance(record, Mapping) else tag_values(record.tags)
    board = _board(tags)
    blokus.apply_tags(board, tags)
    return board


_DEFAULT_PLAYERS = str(PLAYERS.default)
#: The empty board of each count of players ``[Players]`` allows, by its digits.
_EMPTY_BOARDS = {str(n): Board(n) for n in range(1, 5) if PLAYERS.takes(n)}


def _board(tags: Mapping[str, str]) -> Board:
    if "Position" in tags:  # a set-up board, like PGN's FEN tag
        try:
            board = position.read(tags["Position"])
        except NotationError as exc:
            raise TagError("Position", f"[Position]: {exc}") from None
        if "Players" in tags and tags["Players"] != str(board.players):
            raise TagError("Players", f"[Players \"{shorten(tags['Players'])}\"] but the "
                                      f"[Position] has {board.players} hands")
        return board
    value = tags.get("Players", _DEFAULT_PLAYERS)
    empty = _EMPTY_BOARDS.get(value)
    if empty is not None:  # (a plain count: a copy of its empty board, no number read)
        return empty.copy()
    if not (is_whole(value) and PLAYERS.takes(value)):
        raise TagError("Players", f"[Players \"{shorten(value)}\"]: Tilewe is for "
                                  f"{PLAYERS.allowed} players")
    return Board(int(value))


def play(board: Board, move: Move) -> None:
    """Play ``move`` for the player whose turn it is, or raise :class:`RuleError`.

    The candidate player is tried first: if the move fits them, they could
    move, and no search for who is to move is needed.
    """
    if board.over:
        raise RuleError("the game is over: no player can move", "game end")
    piece, orientation, contact, target = move
    spelling = PLACING.get((piece, orientation, contact))
    if spelling is None:
        raise RuleError(f"{move} is not a move: its contact is not a contact tile", "notation")
    shape, offset = spelling
    origin = target - offset
    # (on the board: ``valid`` has no origin whose box leaves it, nor one a row wraps to)
    mask = shape.mask << origin if origin >= 0 and shape.valid >> origin & 1 else 0
    bit = 1 << target
    n = board.players
    p = board.turn
    for _ in range(n):
        if not board.out >> p & 1:
            used = board.used[p]
            if (mask and not used >> piece & 1 and not mask & (board.occupied | board.adj[p])
                    and (bit & board.diag[p] if used else bit & board.starts[p])):
                # the shape's neighbours at the reference origin, shifted (see ``Shape``)
                clip = shape.clip[origin % SIZE]
                if origin >= REFERENCE:
                    shift = origin - REFERENCE
                    board.adj[p] |= shape.edges << shift & clip
                    board.diag[p] |= shape.diagonals << shift & clip
                else:
                    shift = REFERENCE - origin
                    board.adj[p] |= shape.edges >> shift & clip
                    board.diag[p] |= shape.diagonals >> shift & clip
                board.occupied |= mask
                board.own[p] |= mask
                board.used[p] = used | 1 << piece
                board.last_piece[p] = piece
                board.ply += 1
                board.last_mover = p
                board.last = mask
                board.turn = (p + 1) % n
                board.turn_known = False
                return
            if board.turn_known and p == board.turn or board.can_move(p):
                message, rule = _why_illegal(board, p, move, mask)
                raise RuleError(message, rule)
            board.out |= 1 << p
        p = (p + 1) % n
    board.over = True
    raise RuleError("the game is over: no player can move", "game end")


apply = play
copy = Board.copy

compiled_rules: Any
try:  # the rules over a whole game compiled (compiled/rules.c), where the install built it
    from .compiled import rules as compiled_rules
except ImportError:  # pragma: no cover - a machine without a C compiler
    compiled_rules = None
#: Whether a game's moves are played by the compiled module (``notation --version`` says).
COMPILED = compiled_rules is not None

#: The fields of a :class:`Board` the compiled rules read and write, in their order.
FIELDS = ("players", "occupied", "own", "adj", "diag", "used", "turn", "turn_known", "out",
          "over", "ply", "last_mover", "last", "starts", "last_piece")


@lru_cache(maxsize=None)
def compiled_slots() -> list[tuple[int, int, Cell]]:
    """The spellings (piece, canonical orientation, contact) in the compiled rules' slot
    order, those rules given, once, each spelling text's slot and each slot's piece and
    tiles (from the contact tile): the geometry stays the Python tables' (``pieces.py``)."""
    order = list(bitboard.SPELLING)
    slots = {spelling: number for number, spelling in enumerate(order)}
    shapes = [(piece, tuple((x - contact[0], y - contact[1])
                            for x, y in orientation(piece, index).cells))
              for piece, index, contact in order]
    placing = [-1] * SPELLING_NUMBERS
    for (piece, alias, contact), (shape, _offset) in bitboard.PLACING.items():
        placing[spelling_number(piece, alias, contact)] = slots[piece, shape.orientation,
                                                                contact]
    compiled_rules.set_tables({text: slots[spelling] for text, spelling in SPELLINGS.items()},
                              shapes, placing)
    return order


def replay_words(board: Board, words: list[str], /) -> bool | None:
    """Every word (a move's text as the MOVE terminal matched it) played on ``board``, then
    who moves next found, in one compiled call: True; False at the first word that is not
    a legal move read there (the board is then unspecified: the full path says what is
    wrong); None where the compiled module is not built (the fast path plays each move).
    :func:`replay_words_python` is its definition."""
    if compiled_rules is None:
        return None
    return _replayed(board, compiled_rules.replay, words) is not None


def replay_body(board: Board, body: str, /) -> int | bool | None:
    """A body in the usual layout ("1. X 2. Y") played on ``board`` in one compiled call
    that cuts it into its words too: the words played; False at the first word that is
    not a legal move read there (the board is then unspecified); None, the board
    untouched, where the call does not take the body (not ASCII, or another layout, which ``fastpath._usual_words``, its
    definition, would not take either) or the compiled module is not built."""
    if compiled_rules is None:
        return None
    compiled_slots()
    found = compiled_rules.replay_body(_fields_of(board), body)
    if not isinstance(found, tuple):
        return None if found is None else False
    _set_fields(board, found[0])
    return int(found[1])


def replay_recorded(board: Board, moves: list[Move], /) -> tuple[list[int], list[int]] | None:
    """Every move played on ``board`` and who moves next found, in one compiled call, with
    each ply's player and tiles (export's columns: ``state.replayed_columns``, whose loop
    is its definition); None, the board untouched, where the compiled module is not built
    or a move is not one it plays (the caller plays each move, and says why)."""
    if compiled_rules is None:
        return None
    found = _replayed(board, compiled_rules.replay_moves, moves)
    return None if found is None else (found[1], found[2])


def _replayed(board: Board, replay: Callable[[tuple[Any, ...], list[Any]], Any],
              items: list[Any]) -> Any:
    """A compiled replay of ``items`` from ``board``'s fields: its answer (the board's new
    fields, set on ``board``, and what it recorded), or None (a problem, ``board``
    untouched)."""
    compiled_slots()
    found = replay(_fields_of(board), items)
    if found is not None:
        _set_fields(board, found[0])
    return found


#: A board's :data:`FIELDS`, as one tuple (one call in C).
_fields_of = attrgetter(*FIELDS)


def _set_fields(board: Board, fields: tuple[Any, ...]) -> None:
    """Set a board's :data:`FIELDS` (written out, in their order: a loop of ``setattr``
    over them was a tenth of a game's compiled replay; a test holds the two in step)."""
    (board.players, board.occupied, board.own, board.adj, board.diag, board.used, board.turn,
     board.turn_known, board.out, board.over, board.ply, board.last_mover, board.last,
     board.starts, board.last_piece) = fields


def replay_words_python(board: Board, words: list[str], /) -> bool:
    """:func:`replay_words` in Python: each word read and played, then who moves found."""
    try:
        for word in words:
            play(board, read_move(word))
    except (NotationError, RuleError, KeyError, IndexError):
        return False
    board.to_move()
    return True


def applier(board: Board, /) -> Callable[[Move], None]:
    """:func:`play` bound to ``board`` (the reader's hot path: no frame of its own)."""
    return partial(play, board)


def _why_illegal(board: Board, player: int, move: Move, mask: int) -> tuple[str, str]:
    """The message and the rule's short name for a move ``player`` may not play."""
    who = COLORS[player]
    if board.used[player] >> move.piece & 1:
        return f"{who} has already placed {move.piece_name}", "each piece once"
    if not mask:
        return (f"{move} would put part of {move.piece_name} off the board",
                "on the board")
    taken = mask & board.occupied
    if taken:
        owners = ", ".join(f"{square_name(s)} ({COLORS[owner]})" for s in bitboard.squares(taken)
                           if (owner := board.color_at(s)) is not None)
        return f"{move} covers occupied tiles: {owners}", "empty tiles"
    touching = mask & board.adj[player]
    if touching:
        tiles = " ".join(square_name(s) for s in bitboard.squares(touching))
        return (f"{move} touches {who}'s own pieces along an edge at {tiles}",
                "no edge contact with own colour")
    target = square_name(move.target)
    if not board.used[player] and board.starts[player] != bitboard.CORNERS:
        corner = blokus.CORNER_NAMES[player]
        return (f"{who}'s first piece must cover {who}'s own corner {corner} (its contact "
                f"tile there), not {target}", "first piece on its own corner")
    if not board.used[player]:
        return (f"{who}'s first piece must put its contact tile on an empty board corner "
                f"(a1, t1, a20, t20), not {target}", "first piece in a corner")
    return (f"the target {target} is not diagonal to any {who} tile (not an open corner)",
            "contact on an open corner")


def legal_moves(board: Board, player: int | None = None, /, **options: Any) -> list[Move]:
    """Every legal move spelling of ``player`` (default: the player to move), in the
    reference's order (target, piece, orientation, contact). The game takes no options
    (``legal``'s): any given is refused, by name."""
    if options:
        raise NotationError(f"tilewe legal moves take no options ({', '.join(options)})")
    if player is None:
        player = board.to_move()
        if player is None:
            return []
    return bitboard.placements(board.blocked(player), board.used[player], board.anchors(player))


def is_over(board: Board, /) -> bool:
    return board.to_move() is None


def to_move(board: Board, /) -> str | None:
    """The colour to move (None once the game is over)."""
    mover = board.to_move()
    return None if mover is None else COLORS[mover]


#: Each colour its own player (Tilewe's default ``[Owners]``), by the number of colours.
_OWN_PLAYERS = tuple(tuple(range(1, n + 1)) for n in range(5))


def winners(board: Board) -> list[int]:
    """The colours with the top score (more than one is a tie); under ``[Owners]`` or
    ``[Scoring]``, the colours held alone by the players with the top total."""
    return _points(board)[1]


def _points(board: Board) -> tuple[list[int], list[int]]:
    """Each colour's points (``blokus.colour_points``) and the winning colours (the
    Tilewe way at once: asked once a game read)."""
    if board.scoring != "tiles" or board.owners != _OWN_PLAYERS[board.players]:
        return blokus.colour_points(board), blokus.winning_colours(board)
    scores = board.scores()
    top = max(scores)
    return scores, [p for p, s in enumerate(scores) if s == top]


def result(board: Board, /) -> Result:
    """The winners' colours once the game is over (else none); ``[Result]`` ("*" while the
    game goes on, else those colours) and ``[Scores]``; and the ``result`` object of
    ``replay --json``, which names the leading colours by number even while it goes on."""
    over = board.over or (not board.turn_known and board.to_move() is None)
    points, leading = _points(board)
    words = [COLORS[p] for p in leading] if over else []
    return Result(over, words,
                  {"Result": " ".join(words) if over else "*",
                   "Scores": " ".join(map(str, points))},
                  {"over": over, "scores": points, "winners": leading})


# -- scores -------------------------------------------------------------------------------------

def seats(board: Board, /) -> list[str]:
    """The colours in play, in turn order."""
    return list(COLORS[:board.players])


def player_count(board: Board, /) -> int:
    return board.players


facts = Board.facts
