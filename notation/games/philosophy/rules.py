"""The Philosophy rules engine (rules file sections 2-9).

It follows the reference's activation algorithm (section 5) with the sane
behaviour the rules file gives for each reference defect (section 5.1).
Every event is applied as a transaction: a rejected event leaves the state
exactly as it was. Where the rules file is silent, a leave that removes the
leaver's tiles while another player's choice is open voids a choice about a
removed tile (or among candidates that no longer qualify), and that player's
chain reaction goes on without it.
"""
from __future__ import annotations

import re
from typing import Callable, NoReturn


from notation.core.protocols import RecordView
from notation.core.errors import NotationError, RuleError, TagError
from notation.core.protocols import Result

from .events import Choice, Event, Join, Leave, Placement, Respect, RuleChange
from .geometry import CELL, CENTRE, THROUGH, step, turn
from .legal import legal_moves as legal_moves
from .position import read_position
from .report import result_json
from .state import VARIANTS, Pending, PhilosophyState
from .tiles import PLACEABLE, TARGETS, TILE_CODES, TILES, target_of

#: Who acts while fewer than two players have joined: someone new joins.
JOINING = "new player"
#: PGN-like tags that set a variant: JoinPermitted -> ("join", "permitted").
VARIANT_TAGS = {f"{r.title()}{v.title()}": (r, v) for r, v in VARIANTS}
#: ``[ColorIn "Indiana Jones"]``: the display name of player In.
_COLOUR_TAG = re.compile(r"Color[A-Z][a-z]")


def tag_value(value: str) -> str:
    """``"Between Turns"`` -> ``between_turns`` (section 12)."""
    return "_".join(value.lower().split())


# -- the start ---------------------------------------------------------------------------------
def start(record: RecordView, /) -> PhilosophyState:
    """The state before the first event: a [Position] set-up, rule variants, display names."""
    tags = record.headers
    state = PhilosophyState()
    if "Position" in tags:  # like PGN's FEN tag: a set-up board, or a whole game going on
        try:
            state = read_position(tags["Position"])
        except NotationError as exc:
            raise TagError("Position", f"[Position]: {exc}") from None
    for key, value in tags.items():
        if key in VARIANT_TAGS:
            variant = VARIANT_TAGS[key]
            if tag_value(value) not in VARIANTS[variant]:
                allowed = ", ".join(f'"{v.replace("_", " ").title()}"' for v in VARIANTS[variant])
                raise TagError(key, f"[{key} \"{value}\"]: expected one of {allowed}")
            state.variants[variant] = tag_value(value)
        elif _COLOUR_TAG.fullmatch(key):
            state.colour_tags[key[5:]] = value
    return state


# -- applying events ---------------------------------------------------------------------------
def apply(state: PhilosophyState, event: Event, /) -> None:
    """Apply one event, or raise RuleError and leave the state untouched.

    Every check comes before the first change, except a placement's bracket
    parameters (checked while the chain reaction runs) and its conclusion dots
    (checked once it is played): only those need a snapshot to roll back to.
    """
    if not (isinstance(event, Placement) and (event.params or event.dots)):
        _apply(state, event)
        return
    snapshot = state.copy()
    try:
        _apply(state, event)
        lines = len(state.conclusions()) if event.dots else 0
        if lines != event.dots:  # the event is rejected as a whole
            raise RuleError(f"{event.dots} conclusion dot{'s' * (event.dots != 1)} written, "
                            f"but the board has {lines} line{'s' * (lines != 1)} of three",
                            "conclusion dots")
    except RuleError:
        state.restore(snapshot)
        raise


def applier(state: PhilosophyState, /) -> Callable[[Event], None]:
    """:func:`apply` bound to ``state``, a plain placement (most events) placed straight."""
    def apply_event(event: Event) -> None:
        if type(event) is Placement and not (event.params or event.dots or state.over):
            _place(state, event)
        else:
            apply(state, event)
    return apply_event


def _apply(state: PhilosophyState, event: Event) -> None:
    if state.over:
        raise RuleError("the game is over", "game end")
    if isinstance(event, Placement):
        _place(state, event)
    elif isinstance(event, Choice):
        _choose_bare(state, event.option)
    elif isinstance(event, Join):
        _join(state, event)
    elif isinstance(event, Leave):
        _leave(state, event.player)
    elif isinstance(event, Respect):
        if event.player not in state.order:
            raise RuleError(f"{event.player} is not in the game, so cannot hold the "
                            f"respect token", "respect token")
        state.respect = event.player
    elif isinstance(event, RuleChange):
        _rule_change(state, event)


# -- players -----------------------------------------------------------------------------------
def _join(state: PhilosophyState, event: Join) -> None:
    code = event.player
    if code in state.order:
        raise RuleError(f"{code} is already in the game", "join once")
    started = state.placements > 0
    if started and state.variants[("join", "permitted")] == "only_before_any_placement":
        raise RuleError(f"{code} cannot join: joining is only allowed before the first "
                        f"placement (rule:join:permitted)", "join permitted")
    if not started or state.variants[("join", "where")] == "after_a_full_turn":
        state.order.append(code)
    elif state.pending is not None:
        state.order.insert(1, code)  # right after the player who is choosing
    else:
        state.order.insert(0, code)  # places next
    state.names[code] = event.name or state.colour_tags.get(code, code)
    if code not in state.hands:  # (a set-up board or an earlier stay may have left fewer)
        state.hands[code] = set(TILE_CODES)
        if state.before_last_placement is not None:  # a rollback gives back the same hand
            state.before_last_placement[1][code] = set(TILE_CODES)


def _leave(state: PhilosophyState, code: str) -> None:
    if code not in state.order:
        raise RuleError(f"{code} is not in the game", "leave")
    permitted = state.variants[("leave", "permitted")]
    if permitted == "never":
        raise RuleError(f"{code} cannot leave: leaving is not allowed (rule:leave:permitted)",
                        "leave permitted")
    if permitted == "only_before_any_placement" and state.placements:
        raise RuleError(f"{code} cannot leave: leaving is only allowed before the first "
                        f"placement (rule:leave:permitted)", "leave permitted")
    effect = state.variants[("leave", "effect")]
    state.order.remove(code)
    del state.names[code]
    if state.mover == code:
        _clear_turn(state)
    if effect == "ends_game":
        state.over, state.ended_by = True, "leave"
        _clear_turn(state)
    elif effect == "remove_their_tiles":
        state.board = {s: t for s, t in state.board.items() if t[0] != code}
        state.holders = None
        if state.pending is not None and _lapsed(state, state.pending):
            state.pending = None
            _run(state)
    elif effect == "rollback_placement" and state.before_last_placement is not None:
        board, hands = state.before_last_placement
        state.board = dict(board)
        state.holders = None
        kept = {p: set(h) for p, h in hands.items()}
        state.hands.update({p: h for p, h in kept.items() if p in state.hands})
        _clear_turn(state)


def _lapsed(state: PhilosophyState, pending: Pending) -> bool:
    """Whether a tile taken off the board voided the open choice."""
    if pending.kind == "candidate":
        return tuple(sorted(candidates(state))) != pending.options
    return pending.target not in state.board


def _rule_change(state: PhilosophyState, event: RuleChange) -> None:
    key = (event.rule, event.variable)
    if key not in VARIANTS:
        raise RuleError(f"rule:{event.rule} has no variable {event.variable!r}; it has "
                        + ", ".join(v for r, v in VARIANTS if r == event.rule), "rule change")
    if event.value not in VARIANTS[key]:
        raise RuleError(f"{event.value!r} is not a value of rule:{event.rule}:{event.variable}"
                        f" ({', '.join(VARIANTS[key])})", "rule change")
    state.variants[key] = event.value


# -- placing -----------------------------------------------------------------------------------
def _place(state: PhilosophyState, event: Placement) -> None:
    """Checks in the reference's order (section 10), then the chain reaction."""
    p, space, tile, facing = event.player, event.space, event.tile, event.facing
    order = state.order
    # every check of _refuse at once, in its order (the usual case: it passes)
    if not (len(order) > 1 and state.pending is None and p == order[0]
            and (tile, facing) in PLACEABLE and space in CENTRE
            and (space != "C5" or state.placements or state.set_up)
            and space not in state.board and tile in state.hands[p]):
        _refuse(state, event)
    board, hands = state.board, state.hands
    # the hands are shared with the snapshot: a hand is replaced, never changed in place
    state.before_last_placement = (dict(board), dict(hands))
    state.placements += 1
    hands[p] = hands[p] - {tile}
    board[space] = (p, tile, facing)
    state.mover = p
    # With only the new tile touched, it is the one candidate there can be (see
    # ``candidates``); when it aims at no other player's tile, the turn is over.
    target = TARGETS[(space, tile, facing)]
    if target is None or target not in board or board[target][0] == p:
        # the turn is over with one tile more: the holders of lines are those before it,
        # and its owner if the new tile completes a line
        held = state.holders
        if held is not None and p not in held:
            get = board.get
            for a, b in THROUGH[space]:
                x = get(a)
                if x is not None and x[0] == p:
                    y = get(b)
                    if y is not None and y[0] == p:
                        state.holders = held | {p}
                        break
        _end_turn(state)
    else:
        state.holders = None  # (tiles move: the turn's end finds them afresh)
        # the new tile is the mover's own: it is the turn's first touched tile
        state.touched_own, state.touched_other, state.activated = {space}, set(), set()
        _run(state)
    for param in event.params:
        if state.pending is None:
            raise RuleError(f"parameter {param} given, but no choice is open", "choice")
        _choose(state, state.pending, param)


def _refuse(state: PhilosophyState, event: Placement) -> NoReturn:
    """The RuleError of the first check (in the reference's order) a placement fails."""
    p = event.player
    if len(state.order) < 2:
        raise RuleError("a placement needs at least two players in the game", "two players")
    if state.pending is not None:
        who = "first" if p == state.mover else f"wait: {state.mover} must first"
        raise RuleError(f"{who} choose one of {' '.join(state.pending.options)}",
                        "pending choice")
    if p != state.order[0]:
        raise RuleError(f"it is {state.order[0]}'s turn, not {p}'s", "turn order")
    if event.tile not in TILES:
        raise RuleError(f"unknown tile {event.tile!r} (tiles: {' '.join(TILE_CODES)})",
                        "tile")
    if event.space not in CELL:
        raise RuleError(f"unknown space {event.space!r}", "space")
    if event.space == "C5" and state.placements == 0 and not state.set_up:
        raise RuleError("the first placement of the game may not be on C5", "first placement")
    if event.space not in CENTRE:
        raise RuleError(f"{event.space} is outside the centre: tiles are placed on C1-C9",
                        "centre only")
    if event.space in state.board:
        o, t, f = state.board[event.space]
        raise RuleError(f"{event.space} is occupied by {o}{t}{f}", "empty space")
    if event.tile not in state.hands[p]:
        raise RuleError(f"{p} has no {event.tile} in hand (it is on the board)", "tile in hand")
    kind = TILES[event.tile]
    if event.facing not in kind.facings:
        raise RuleError(f"a {kind.name} ({event.tile}) faces {' '.join(kind.facings)}, "
                        f"not {event.facing}", "facing")
    raise AssertionError(f"{event} passes every check yet was refused")  # pragma: no cover


def _choose_bare(state: PhilosophyState, option: str) -> None:
    if state.pending is None:
        raise RuleError(f"choice {option} given, but no choice is open", "choice")
    _choose(state, state.pending, option)


def _choose(state: PhilosophyState, pending: Pending, option: str) -> None:
    if option not in pending.options:
        raise RuleError(f"{option} is not one of the options {' '.join(pending.options)}",
                        "choice")
    state.pending = None
    if pending.kind == "candidate":
        _activate(state, option)
    else:
        target = pending.target
        assert target is not None  # a decision or a rephrase is about one tile
        if pending.kind == "decision":
            _move(state, target, 1, dict(pending.directions)[option])
        else:  # rephrase
            owner, tile, _ = state.board[target]
            state.board[target] = (owner, tile, option)
            ahead = step(target, option)
            if ahead is not None and ahead in state.board:
                _touch(state, ahead)
    _run(state)


# -- the chain reaction (section 5) ------------------------------------------------------------
def _touch(state: PhilosophyState, space: str) -> None:
    if state.board[space][0] == state.mover:
        state.touched_own.add(space)
    else:
        state.touched_other.add(space)


def candidates(state: PhilosophyState) -> list[str]:
    """The mover's tiles that may activate now, in no set order (callers sort them).

    A tile qualifies if it was touched, or its target was; while no other player's tile
    has been touched (a turn's first step), only the touched own spaces need a look.
    """
    p, board, activated = state.mover, state.board, state.activated
    found = []
    for space in board if state.touched_other else state.touched_own:
        here = board.get(space)
        if here is None:
            continue
        owner, tile, facing = here
        if owner != p or (owner, tile) in activated:
            continue
        key = (space, tile, facing)  # the table first: this runs for every mover's tile
        target = TARGETS[key] if key in TARGETS else target_of(space, tile, facing)
        if target is None or target not in board or board[target][0] == p:
            continue
        if space in state.touched_own or target in state.touched_other:
            found.append(space)
    return found


def _run(state: PhilosophyState) -> None:
    """Activate candidates until none is left or a choice is needed."""
    while state.pending is None:
        ready = candidates(state)
        if not ready:
            _end_turn(state)
            return
        if len(ready) > 1:
            state.pending = Pending("candidate", tuple(sorted(ready)))
            return
        _activate(state, ready[0])


def _activate(state: PhilosophyState, space: str) -> None:
    owner, tile, facing = state.board[space]
    state.activated.add((owner, tile))
    target = target_of(space, tile, facing)
    assert target is not None  # only a tile whose target is on the board is a candidate
    kind = TILES[tile]
    if kind.moves is not None:
        _move(state, target, kind.steps, turn(facing, kind.moves))
    elif tile == "De":
        choices = []
        for eighths in (-2, 2):
            direction = turn(facing, eighths)
            choices.append((step(target, direction) or "OO", direction))
        options = tuple(sorted({o for o, _ in choices}))
        if len(options) == 1:  # both ways off the board: nothing to choose
            _move(state, target, 1, choices[0][1])
        else:
            state.pending = Pending("decision", options, target, tuple(sorted(choices)))
    else:  # Rephrase: a new facing from the target's own set
        target_tile = state.board[target][1]
        facings = TILES[target_tile].facings
        state.pending = Pending("rephrase", tuple(sorted(facings)), target)


def _move(state: PhilosophyState, space: str, steps: int, direction: str) -> None:
    """Move the tile on ``space``, shoving any line in the way (section 3.1)."""
    owner, tile, facing = state.board[space]
    dest = step(space, direction, steps)
    if dest is None:  # off the board: back to its owner's hand
        del state.board[space]
        hand = state.hands.get(owner)  # a new set: the last placement's snapshot shares hands
        state.hands[owner] = {tile} if hand is None else hand | {tile}
        return
    if dest in state.board:
        _move(state, dest, 1, direction)
    del state.board[space]
    state.board[dest] = (owner, tile, facing)
    _touch(state, dest)


def _clear_turn(state: PhilosophyState) -> None:
    state.pending = None
    state.mover = None
    state.touched_own, state.touched_other, state.activated = set(), set(), set()


def _end_turn(state: PhilosophyState) -> None:
    mover = state.mover
    _clear_turn(state)
    if mover in state.order:
        state.order.remove(mover)
        state.order.append(mover)
    owners = state.holders
    if owners is None:
        owners = state.holders = frozenset(state.line_owners())
    if len(owners) == 1:
        state.over, state.ended_by = True, "conclusion"
        (state.winner,) = owners


# -- who moves, and how it ended ---------------------------------------------------------------
copy = PhilosophyState.copy


def is_over(state: PhilosophyState, /) -> bool:
    return state.over


def to_move(state: PhilosophyState, /) -> str | None:
    """The player to place or to choose; :data:`JOINING` while fewer than two have
    joined (``replay --json``'s ``to_move`` stays the head of the order)."""
    if not state.over and state.pending is None and len(state.order) < 2:
        return JOINING
    return state.to_move


def result_tags(state: PhilosophyState, /) -> dict[str, str]:
    """``[Result]``: ``*`` while the game goes on, the winner's code, or ``none`` (a
    record's check asks this alone: the lines of :func:`result` cost as much again)."""
    return {"Result": "*" if not state.over else state.winner or "none"}


def result(state: PhilosophyState, /) -> Result:
    """:func:`result_tags`, the winner, and ``replay --json``'s result
    (:func:`~.report.result_json`)."""
    return Result(state.over, [state.winner] if state.over and state.winner else [],
                  result_tags(state), result_json(state))
