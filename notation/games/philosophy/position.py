"""Philosophy's position notation: the board alone (rules file section 11), or the whole
game in progress, which :func:`notation.from_position` reads back into an identical game.

**Board** (``replay --json``'s ``position``, the ``[Position]`` set-up of README):
``C3:SaSlNo/C5:InSrNo/E1:InDeNw``, the occupied spaces as ``SPACE:XxTtDd`` (owner, tile,
facing) in the order C1..C9, NW, N1..N6, NE, E1..E6, SE, S1..S6, SW, W1..W6; the empty
board is the empty string. Read alone it is a set-up board that nobody has joined yet,
each owner holding the tiles that are not on it (a board with tiles is past the first
placement, so C5 is open).

**Whole game**: fields separated by spaces, at least the first three::

    C2:InPuNo/C5:TeToNo TeIn 2 In+:"Indiana Jones" R:Te last:C2:InPuNo

1. the board (``-`` when empty);
2. the turn order, codes run together, the next to place first (``-``: nobody joined);
3. how many placements the game has had (the first may not be on C5; joins and leaves
   "only before any placement" look at it);

then, in this order, only the items that say something:

* ``setup``: the game started from a set-up board, where the board does not show it
  (tiles on it and no placement yet do);
* ``Xx+:name``: a player's display name, written as the join writes it, unless it is the code;
* ``ColorXx:name``: the name a ``[ColorXx]`` tag gives a player who joins later;
* ``R:Xx``: who holds the respect token;
* ``rule:RULE:VARIABLE:VALUE``: a rule variant away from its default;
* ``hand:Xx:TtTt``: a hand other than all the player's tiles that are not on the board
  (``-``: empty; a leave may have removed tiles), and the hand of a player who left;
* ``last:BOARD``: the board before the latest placement (``rollback_placement`` goes back
  to it; the picture outlines what changed), and ``lasthand:Xx:TtTt``, a hand then that
  was not all the player's tiles off that board;
* ``choice:Xx:KIND:TARGET:OPTIONS``: Xx must choose before the turn goes on: ``candidate``
  (TARGET ``-``), ``decision`` or ``rephrase`` of the tile on TARGET, among OPTIONS (run
  together in plain ASCII order, as an incomplete move lists them);
* ``touched:AAAA/BBBB``: this turn's touched spaces that held the mover's tiles / another
  player's (section 5; ``-`` for none), and ``activated:XxTtXxTt``, its activated tiles;
* ``result:Xx`` or ``result:none``: the game is over, won by Xx's conclusion or ended by
  a leave.
"""
from __future__ import annotations

import re
from typing import Iterable, Iterator

from notation.core.errors import NotationError
from notation.core.limits import is_whole

from .events import read_join, written_name
from .geometry import CELL, DIR_INDEX, DIRECTIONS, RANK, step, turn
from .state import VARIANTS, Pending, PhilosophyState, Tile, board_text
from .tiles import TILE_CODES, TILES

#: One board item: a space, then the tile on it (owner, tile type, facing).
_ITEM = re.compile(r"(?P<space>[A-Z][A-Za-z0-9]):(?P<owner>[A-Z][a-z])(?P<tile>[A-Z][a-z])"
                   r"(?P<facing>[A-Z][a-z])")
#: A field: characters other than spaces and quotes, and quoted names, up to a space.
_FIELD = re.compile(r'\s*+((?:"(?:[^"\\\n]|\\.)*+"|[^\s"])++)(?=\s|$)')
_CODES = re.compile(r"(?:[A-Z][a-z])++")
_HAND = re.compile(r"(?P<code>[A-Z][a-z]):(?P<tiles>-|(?:[A-Z][a-z])++)")
_COLOUR = re.compile(r"Color(?P<code>[A-Z][a-z]):(?P<name>.+)", re.S)
_RULE = re.compile(r"rule:(?P<rule>[a-z]+):(?P<variable>[a-z]+):(?P<value>[a-z_]+)")
_CHOICE = re.compile(r"choice:(?P<mover>[A-Z][a-z]):(?P<kind>[a-z]+)"
                     r":(?P<target>-|[A-Z][A-Za-z0-9]):(?P<options>(?:[A-Z][A-Za-z0-9])++)")
_TOUCHED = re.compile(r"touched:(?P<own>-|(?:[A-Z][A-Za-z0-9])++)"
                      r"/(?P<other>-|(?:[A-Z][A-Za-z0-9])++)")
_KINDS = ("candidate", "decision", "rephrase")


def _pairs(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _run(codes: Iterable[str]) -> str:
    """Codes run together, ``-`` for none."""
    return "".join(codes) or "-"


# -- writing ------------------------------------------------------------------------------------
def _complement(board: dict[str, Tile], player: str) -> set[str]:
    """The tiles of ``player`` that are not on ``board``: a hand with nothing lost."""
    return set(TILE_CODES).difference(t for o, t, _ in board.values() if o == player)


def _hand_text(hand: set[str]) -> str:
    return "".join(t for t in TILE_CODES if t in hand) or "-"


def write_position(state: PhilosophyState, /) -> str:
    """The whole game in progress (the module docstring's form)."""
    board = state.board
    fields = [board_text(board) or "-", "".join(state.order) or "-", str(state.placements)]
    if state.set_up and not (board and state.placements == 0):
        fields.append("setup")
    fields += [f"{p}+:{written_name(state.names[p])}" for p in state.order
               if state.names[p] != p]
    fields += [f"Color{code}:{written_name(name)}"
               for code, name in sorted(state.colour_tags.items())]
    if state.respect is not None:
        fields.append(f"R:{state.respect}")
    fields += [f"rule:{r}:{v}:{value}" for (r, v), value in state.variants.items()
               if value != VARIANTS[(r, v)][0]]
    owners = {o for o, _, _ in board.values()}
    fields += [f"hand:{p}:{_hand_text(hand)}" for p, hand in sorted(state.hands.items())
               if hand != _complement(board, p) or (p not in owners and p not in state.order)]
    if state.before_last_placement is not None:
        last, hands = state.before_last_placement
        fields.append(f"last:{board_text(last) or '-'}")
        fields += [f"lasthand:{p}:{_hand_text(hand)}" for p, hand in sorted(hands.items())
                   if hand != _complement(last, p)]
    if state.pending is not None:
        pending = state.pending
        fields.append(f"choice:{state.mover}:{pending.kind}:{pending.target or '-'}:"
                      + "".join(pending.options))
    if state.touched_own or state.touched_other or state.activated:
        fields.append(f"touched:{_run(sorted(state.touched_own, key=RANK.__getitem__))}/"
                      f"{_run(sorted(state.touched_other, key=RANK.__getitem__))}")
        fields.append("activated:" + _run(o + t for o, t in sorted(state.activated)))
    if state.over:
        fields.append(f"result:{state.winner or 'none'}")
    return " ".join(fields)


#: ``replay --json``'s ``position``: the board alone (checked against the reference).
compact_position = PhilosophyState.position


def timeless_position(text: str, /) -> str:
    """A full position with its count of placements kept only as ``0`` or ``+``: the
    rules ask whether there was a first placement, never how many."""
    fields = text.split(" ")
    if len(fields) >= 3 and fields[2].isdigit():
        fields[2] = "0" if fields[2] == "0" else "+"
    return " ".join(fields)


# -- reading ------------------------------------------------------------------------------------
def read_board(text: str) -> dict[str, Tile]:
    """A board-state string (``-`` or empty: the empty board), checked item by item."""
    board: dict[str, Tile] = {}
    placed: set[tuple[str, str]] = set()
    last = -1
    for item in filter(None, text.split("/")) if text != "-" else ():
        m = _ITEM.fullmatch(item)
        if m is None or m["space"] not in CELL or m["facing"] not in DIR_INDEX:
            raise NotationError(f"{item!r} is not SPACE:XxTtDd such as C3:SaSlNo")
        space, owner, tile, facing = m.group("space", "owner", "tile", "facing")
        if tile not in TILES or facing not in TILES[tile].facings:
            raise NotationError(f"{item!r}: no {tile} tile faces {facing}")
        rank = RANK[space]
        if rank <= last:
            raise NotationError(f"{item!r} is out of order (C1..C9, NW, N1..N6, NE, E1..E6,"
                                f" SE, S1..S6, SW, W1..W6)")
        last = rank
        if (owner, tile) in placed:
            raise NotationError(f"{owner} has only one {tile}")
        placed.add((owner, tile))
        board[space] = (owner, tile, facing)
    return board


def _fields(text: str) -> Iterator[str]:
    """The space-separated fields of ``text`` (a quoted name may hold spaces)."""
    text, at = text.strip(), 0
    while at < len(text):
        m = _FIELD.match(text, at)
        if m is None:
            raise NotationError(f"unbalanced quote in the position at {text[at:at + 20]!r}")
        yield m.group(1)
        at = m.end()


def read_position(text: str, /) -> PhilosophyState:
    """The board alone (a set-up board nobody joined) or the whole game (the module
    docstring); NotationError says what is wrong with it."""
    fields = list(_fields(text))
    if len(fields) <= 1:
        state = PhilosophyState()
        state.board = read_board(fields[0] if fields else "")
        for owner in dict.fromkeys(o for o, _, _ in state.board.values()):  # (board order)
            state.hands[owner] = _complement(state.board, owner)
        state.set_up = bool(state.board)
        return state
    if len(fields) == 2:
        raise NotationError("a position is a board, or a board, the turn order and the "
                            "number of placements (then more), separated by spaces")
    return _read_game(fields)


def _read_game(fields: list[str]) -> PhilosophyState:
    board_field, order_field, count, *items = fields
    state = PhilosophyState()
    state.board = read_board(board_field)
    if order_field != "-" and not _CODES.fullmatch(order_field):
        raise NotationError(f"{order_field!r} is not a turn order such as TeIn (- for none)")
    state.order = _pairs(order_field) if order_field != "-" else []
    if len(set(state.order)) != len(state.order):
        raise NotationError(f"{order_field!r} names a player twice")
    if not is_whole(count):
        raise NotationError(f"{count!r} is not a number of placements")
    state.placements = int(count)
    state.names = {p: p for p in state.order}
    players = [*state.order, *(o for o, _, _ in state.board.values())]
    state.hands = {p: _complement(state.board, p) for p in players}
    seen: set[str] = set()
    last: tuple[dict[str, Tile], dict[str, str]] | None = None
    for item in items:
        key = _item_key(item)
        if key in seen:
            raise NotationError(f"{item!r}: said twice in the position")
        seen.add(key)
        last = _read_item(state, item, last)
    state.set_up = "setup" in seen or (state.placements == 0 and bool(state.board))
    if last is not None:
        board, written = last
        hands = {p: _complement(board, p) for p in state.hands}
        for p, tiles in written.items():
            hands[p] = _hand(p, tiles, board)
        state.before_last_placement = (board, hands)
    _check_turn(state)
    return state


def _item_key(item: str) -> str:
    """What an item is about (each may be said once): ``hand:In``, ``R``, ``rule:join:where``."""
    head, _, rest = item.partition(":")
    if head.endswith("+"):
        return head
    if head in ("hand", "lasthand"):
        return f"{head}:{rest.partition(':')[0]}"
    return item.rpartition(":")[0] if head == "rule" else head


def _read_item(state: PhilosophyState, item: str,
               last: tuple[dict[str, Tile], dict[str, str]] | None
               ) -> tuple[dict[str, Tile], dict[str, str]] | None:
    """Apply one item to ``state``; the ``last`` board and its written hands pass through."""
    head, _, rest = item.partition(":")
    if item == "setup":
        return last
    if head.endswith("+"):
        if head[:-1] not in state.order:
            raise NotationError(f"{item!r}: a display name is Xx+:name for a player in the game")
        state.names[head[:-1]] = _name(item, item)
    elif m := _COLOUR.fullmatch(item):
        state.colour_tags[m["code"]] = _name(item, f"{m['code']}+:{m['name']}")
    elif head == "R" and re.fullmatch(r"[A-Z][a-z]", rest):
        state.respect = rest
    elif m := _RULE.fullmatch(item):
        key = (m["rule"], m["variable"])
        if key not in VARIANTS or m["value"] not in VARIANTS[key]:
            raise NotationError(f"{item!r} is not a rule variant's value")
        state.variants[key] = m["value"]
    elif head == "hand" and (m := _HAND.fullmatch(rest)):
        state.hands[m["code"]] = _hand(m["code"], m["tiles"], state.board)
    elif head == "last" and last is None:
        return read_board(rest), {}
    elif head == "lasthand" and last is not None and (m := _HAND.fullmatch(rest)):
        last[1][m["code"]] = m["tiles"]
    elif m := _CHOICE.fullmatch(item):
        state.mover = m["mover"]
        state.pending = _pending(state, m["kind"], m["target"], _pairs(m["options"]))
    elif m := _TOUCHED.fullmatch(item):
        state.touched_own = _spaces(m["own"])
        state.touched_other = _spaces(m["other"])
    elif head == "activated" and (rest == "-" or _CODES.fullmatch(rest)):
        codes = _pairs(rest) if rest != "-" else []
        if len(codes) % 2 or any(t not in TILES for t in codes[1::2]):
            raise NotationError(f"{item!r}: activated tiles are owner and tile codes (InPu)")
        state.activated = set(zip(codes[::2], codes[1::2]))
    elif head == "result" and (rest == "none" or re.fullmatch(r"[A-Z][a-z]", rest)):
        state.over = True
        state.winner = None if rest == "none" else rest
        state.ended_by = "leave" if rest == "none" else "conclusion"
    else:
        raise NotationError(f"{item!r} is not an item of a position (see the position "
                            f"notation: setup, Xx+:name, ColorXx:name, R:Xx, rule:..., "
                            f"hand:Xx:TtTt, last:BOARD, lasthand:..., choice:..., touched:..., "
                            f"activated:..., result:Xx)")
    return last


def _name(item: str, join: str) -> str:
    """The name in ``join`` (``In+:name``), read as a join event reads it."""
    try:
        name = read_join(join).name
    except NotationError:
        name = None
    if name is None:
        raise NotationError(f"{item!r}: a name is written as a join writes it (quoted when it "
                            f"holds spaces)")
    return name


def _hand(player: str, tiles: str, board: dict[str, Tile]) -> set[str]:
    written = _pairs(tiles) if tiles != "-" else []
    hand = set(written)
    for tile in written:  # (as written: the first unknown one named, whatever the hash seed)
        if tile not in TILES:
            raise NotationError(f"{player}'s hand: unknown tile {tile!r}")
    on_board = {t for o, t, _ in board.values() if o == player}
    if hand & on_board or (tiles != "-" and len(hand) * 2 != len(tiles)):
        raise NotationError(f"{player}'s hand {tiles} holds a tile twice or one on the board")
    return hand


def _spaces(text: str) -> set[str]:
    found = set(_pairs(text)) if text != "-" else set()
    unknown = sorted(found - CELL.keys())
    if unknown:
        raise NotationError(f"unknown space {unknown[0]!r} in the touched spaces")
    return found


def _pending(state: PhilosophyState, kind: str, target: str, options: list[str]) -> Pending:
    """The open choice, checked against the board: candidates are the mover's tiles, a
    decision's options lie on opposite sides of its target, a rephrase offers the target's
    own facings."""
    where = f"choice:{state.mover}:{kind}:{target}:{''.join(options)}"
    if options != sorted(set(options)) or len(options) < 2:
        raise NotationError(f"{where}: two or more options, each once, in ASCII order")
    if kind == "candidate" and target == "-":
        if any(state.board.get(s, ("",))[0] != state.mover for s in options):
            raise NotationError(f"{where}: a candidate is a space holding the mover's tile")
        return Pending(kind, tuple(options))
    if kind not in _KINDS or target not in state.board:
        raise NotationError(f"{where}: a decision or a rephrase is about a tile on the board")
    if kind == "rephrase":
        if options != sorted(TILES[state.board[target][1]].facings):
            raise NotationError(f"{where}: a rephrase offers the facings of the target's tile")
        return Pending(kind, tuple(options), target)
    return Pending(kind, tuple(options), target, _decision_directions(where, target, options))


def _decision_directions(where: str, target: str, options: list[str]
                         ) -> tuple[tuple[str, str], ...]:
    """Each decision option with the direction that takes the target there (``OO``: off the
    board, opposite the other option)."""
    found = []
    for option in options:
        if option != "OO":
            way = [d for d in DIRECTIONS if step(target, d) == option]
            if not way:
                raise NotationError(f"{where}: {option} is not next to {target}")
            found.append((option, way[0]))
    if len(found) == 1 and len(options) == 2:
        away = turn(found[0][1], 4)
        if step(target, away) is not None:
            raise NotationError(f"{where}: OO, but {target} is not at the edge that way")
        found.append(("OO", away))
    if len(found) != 2 or turn(found[0][1], 4) != found[1][1]:
        raise NotationError(f"{where}: a decision's two options lie on opposite sides")
    return tuple(sorted(found))


def _check_turn(state: PhilosophyState) -> None:
    """A choice belongs to the player at the head of the order; a game over has none."""
    if state.pending is not None and (state.over or not state.order
                                      or state.mover != state.order[0]):
        raise NotationError("a choice is open for the player at the head of the turn order, "
                            "in a game that is not over")
    if state.pending is None and (state.touched_own or state.touched_other or state.activated):
        raise NotationError("touched and activated tiles belong to a turn with a choice open")
