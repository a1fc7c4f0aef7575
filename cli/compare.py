"""``notation diff``: two records (first differing event, differing state) or two positions."""
from __future__ import annotations

import itertools
import os
import sys

import click

from notation.core.tree import GameNode
from notation.core import registry

from notation.core.diffing import diff_records, diff_states
from notation.core.errors import NotationError

from .common import Context, color_option, plural, reading_options, say, shown
from .index_option import INDEX_OPTION, game_at
from .inputs import FileRecords
from .ply_option import note_past_end, ply_option


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@ply_option("Compare the states after ply N.")
@INDEX_OPTION
@click.option("--position", "positions", is_flag=True,
              help="A and B are position strings (needs --game).")
@reading_options
@color_option
def diff(a: str, b: str, ply: int | None, game_index: int | None, positions: bool,
         game_name: str | None, encoding: str, color: bool | None) -> None:
    """It names the first event that differs, and the squares that differ.

    Game K of A is compared with game K of B, for every game (or, with --index K, game K
    only). Exit 0 when they are the same, 1 when they differ, 2 on errors.
    """
    ctx = Context(game_name, encoding, color)
    if positions:
        _diff_positions(a, b, game_name)
    for path in (a, b):
        if path != "-" and os.path.isdir(path):
            raise click.UsageError(f"{shown(path)} is a directory; diff compares two record files")
    if a == "-" and b == "-":
        raise click.UsageError("only one of A and B can be standard input")
    left, right = next(ctx.inputs.read((a,))), next(ctx.inputs.read((b,)))
    if game_index is not None:
        ra, rb = game_at(left, game_index), game_at(right, game_index)
        differ = ra is not None and rb is not None and _differ(ctx, ra, rb, ply)
    else:
        differ = _every_game(ctx, left, right, ply)
    if ctx.internal or ctx.inputs.input_errors:
        ctx.finish()
    sys.exit(1 if differ else 0)


def _every_game(ctx: Context, left: FileRecords, right: FileRecords, ply: int | None) -> bool:
    """Game K of A against game K of B for every K: whether any differ (a game that one file
    has and the other has not is a difference)."""
    differ = False
    count_a = count_b = 0
    for ra, rb in itertools.zip_longest(left, right):  # game by game, in flat memory
        count_a += ra is not None
        count_b += rb is not None
        if ra is None or rb is None:
            differ = True
            continue
        differ |= _differ(ctx, ra, rb, ply)
    if count_a != count_b:
        say(f"{left.path} has {plural(count_a, 'game')}, {right.path} has {count_b:,}")
    return differ


def _differ(ctx: Context, ra: GameNode, rb: GameNode, ply: int | None) -> bool:
    """Says how two games differ (first differing event, differing state); whether they do."""
    with ctx.guard(ra):
        game = registry.get(ra.game) if ra.game else None
        if game is None or ra.game != rb.game:
            say(f"game {ra.index}: cannot compare a {ra.game or 'unknown'} record "
                f"with a {rb.game or 'unknown'} record")
            return True
        result = diff_records(ra, rb, game, ply)
        for record, outcome in ((ra, result.outcome_a), (rb, result.outcome_b)):
            for problem in outcome.problems if outcome else ():
                ctx.report(record, problem, err=True)  # compared up to the problem
            if outcome is not None:
                note_past_end(outcome, ply)
        if result.same:
            say(f"game {ra.index}: same events; same state after ply {result.ply_a}")
            return False
        if result.first_ply is not None:
            say(f"game {ra.index}: first difference at ply {result.first_ply}: "
                f"{result.event_a or '(no event)'} | {result.event_b or '(no event)'}")
        else:
            say(f"game {ra.index}: same events")
        where = (f"after ply {result.ply_a}" if result.ply_a == result.ply_b
                 else f"after ply {result.ply_a} | {result.ply_b}")
        say(f"  {plural(len(result.cells), 'difference')} {where}:")
        for change in result.cells:
            say(f"  {change.name}: {change.a or '-'} | {change.b or '-'}")
    return True


def _diff_positions(a: str, b: str, game_name: str | None) -> None:
    game = registry.get(game_name) if game_name else None
    if game is None:
        raise click.UsageError("--position needs --game GAME")
    try:
        sa, sb = game.read_position(a), game.read_position(b)
    except NotationError as exc:
        raise click.UsageError(f"bad position: {exc}") from None
    changes = diff_states(game, sa, sb)
    for change in changes:
        say(f"  {change.name}: {change.a or '-'} | {change.b or '-'}")
    say("positions are the same" if not changes else plural(len(changes), "difference"))
    sys.exit(1 if changes else 0)
