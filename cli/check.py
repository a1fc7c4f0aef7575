"""Commands that replay records and show positions: ``replay`` and ``legal``."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import click


from notation.core.tree import GameNode
from notation.core.game import needed
from notation.core.errors import NotationError
from notation.core.outcome import Outcome
from notation.core.output import every_json, legal_json, replay_json, tree_json
from notation.core.replay import positions, run

from .common import JOBS_OPTION, PATHS, Context, color_option, plural, reading_options, say, shown
from . import parallel
from .game_options import WithGameOptions
from .index_option import INDEX_OPTION, chosen
from .ply_option import note_past_end, ply_option
from .progress import Tally, watch


@dataclass
class Replay:
    """What ``replay`` shows of each game: JSON, or boards drawn after a ply or every ply."""

    ctx: Context
    tally: Tally
    ply: int | None
    every: bool
    as_json: bool
    view: dict[str, str]
    tree: bool = False

    def show(self, record: GameNode) -> None:
        outcome = run(record, self.ply)
        note_past_end(outcome, self.ply)
        self.tally.count(outcome.valid, outcome.plies)
        self.ctx.invalid |= not outcome.valid
        if self.as_json:
            data = replay_json(outcome)
            if self.every:
                data["every"] = every_json(outcome)
            if self.tree:  # the whole tree, whatever --ply says (it needs the full replay)
                data["tree"] = tree_json(record, outcome if self.ply is None else None)
            say(json.dumps(data))
            return
        game = outcome.game
        if game is not None:  # boards drawn: refused at once for a game without pictures
            needed(game, "pictures", "replay --every" if self.every else "replay")
        say(f"{shown(record.source)}: game {record.index}" + (f" ({game.name})" if game else ""))
        if game is not None and outcome.state is not None:
            if self.every:  # the problems are reported below; the steps stop before the first
                self.steps(game, outcome)
            else:
                self.end(game, outcome)
        self.ctx.report_outcome(outcome)

    def steps(self, game: Any, outcome: Outcome) -> None:
        for step, event, state in positions(outcome):
            say(f"\nafter ply {step} ({game.format_event(event)}):" if step else "start:")
            self.draw(game, state)

    def end(self, game: Any, outcome: Outcome) -> None:
        say(f"after ply {outcome.plies}:")
        self.draw(game, outcome.state)

    def draw(self, game: Any, state: Any) -> None:
        try:
            picture = game.render(state, self.ctx.color, **self.view)
        except NotationError as exc:
            raise click.UsageError(str(exc)) from None
        say(picture, color=self.ctx.color, raw=True)  # drawn by the engine, not the record


@click.command(cls=WithGameOptions)
@PATHS
@ply_option("Show the state after ply N (default: the end).")
@click.option("--every", is_flag=True, help="Show the state after every ply (with --json: an "
              "\"every\" list, ply 0 the start).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game (the replay contract).")
@click.option("--tree", is_flag=True, help="With --json: a \"tree\" object, every event of "
              "every variation with its annotations, comment, commands and the state after it.")
@INDEX_OPTION
@color_option
@JOBS_OPTION
@reading_options
def replay(paths: tuple[str, ...], ply: int | None, every: bool, as_json: bool, tree: bool,
           game_index: int | None, color: bool | None, jobs: int | None,
           game_name: str | None, encoding: str, game_options: dict[str, Any]) -> None:
    if tree and not as_json:
        raise click.UsageError("--tree is for --json")
    ctx = Context(game_name, encoding, color)
    final_json = as_json and ply is None and not every and not tree  # what workers can give
    whole = final_json and game_index is None  # one game of a file is read here
    elsewhere = parallel.elsewhere(ctx, paths, "replay", jobs) if whole else None
    if elsewhere is not None:
        tally = Tally(watch(ctx, paths, True))
        for outcome in elsewhere:
            tally.count(outcome.valid, outcome.plies)
            ctx.invalid |= not outcome.valid
            say(json.dumps(replay_json(outcome)))
        tally.summary()
        ctx.finish()
    view = game_options  # how to draw: the games' own options (a point of view, a view)
    shows = Replay(ctx, Tally(watch(ctx, paths, True)), ply, every, as_json, view, tree)
    for records in ctx.inputs.read(paths, checked=final_json):
        for record in chosen(records, game_index):
            with ctx.guard(record):
                shows.show(record)
    shows.tally.summary()
    ctx.finish()


@click.command(cls=WithGameOptions)
@click.argument("path", metavar="PATH")
@ply_option("After ply N (default: the end).")
@INDEX_OPTION
@click.option("--count", is_flag=True, help="Print only how many legal moves there are, one "
              "number per game (with --json: leave the list of moves out).")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per game: file, index, game, ply, valid, errors, to_move, "
                   "over, position, count, moves (as text, in the game's reference order).")
@reading_options
@color_option
def legal(path: str, ply: int | None, game_index: int | None, count: bool, as_json: bool,
          game_name: str | None, encoding: str, color: bool | None,
          game_options: dict[str, Any]) -> None:
    ctx = Context(game_name, encoding, color)
    options = game_options  # narrowing the question where a game needs it (a drawn tile)
    for records in ctx.inputs.read((path,)):
        for record in chosen(records, game_index):
            with ctx.guard(record):
                _list_legal(ctx, record, ply, count, as_json, options)
    ctx.finish()


def _list_legal(ctx: Context, record: GameNode, ply: int | None, count: bool, as_json: bool,
                options: dict[str, Any]) -> None:
    """The legal moves after ``ply`` of one game: eight to a line, only how many, or JSON."""
    outcome = run(record, ply)
    note_past_end(outcome, ply)
    game, state = outcome.game, outcome.state
    ctx.invalid |= not outcome.valid
    if not outcome.valid or game is None:  # a record of no known game has a problem
        if as_json:
            say(json.dumps(legal_json(outcome, None, listed=not count)))
        else:  # with --count, standard output holds numbers only
            ctx.report_outcome(outcome, err=count)
        return
    try:
        moves = game.legal_moves(state, **options)
    except NotationError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        say(json.dumps(legal_json(outcome, moves, listed=not count)))
    elif count:
        say(str(len(moves)))
    else:
        who = game.to_move(state)
        say(f"{shown(record.source)}: game {record.index}, after ply {outcome.plies}: "
            + (f"{who} to move, {plural(len(moves), 'legal move')}" if who else
               "the game is over, no legal moves"))
        words = [game.format_event(m) for m in moves]
        for i in range(0, len(words), 8):
            say("  " + " ".join(words[i:i + 8]))
