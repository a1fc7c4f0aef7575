"""The `notation` command line.

Every command reads files, directories (walked for known extensions) or
``-``. Exit status: 0 all valid, 1 some record invalid (or, for ``diff`` and
``fmt --check``, some difference), 2 usage or input error.
"""
from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from typing import Any, Callable

import click

import notation
from notation.core import registry
from notation.core.ast import Malformed, Record, Tag
from notation.core.diffing import diff_records, diff_states
from notation.core.errors import InputError, NotationError, Problem
from notation.core.output import caret, problem_line, replay_json
from notation.core.replay import ReplayError, game_of, run, structure_problems
from notation.core.writer import format_record

from .inputs import Inputs

GAME_OPTION = click.option("--game", "game_name", metavar="GAME",
                           help="Game of records without a [Game] tag (before the file extension).")
ENCODING_OPTION = click.option("--encoding", default="utf-8", show_default=True,
                               help="Text encoding of the input files.")
PATHS = click.argument("paths", nargs=-1, required=True, metavar="PATH...")


class Context:
    """Per-invocation state: inputs, whether anything was invalid, terminal styling."""

    def __init__(self, game_name: str | None, encoding: str) -> None:
        if game_name is not None and registry.get(game_name) is None:
            known = ", ".join(g.name for g in registry.games())
            raise click.UsageError(f"unknown game {game_name!r}; known games: {known}")
        self.inputs = Inputs(encoding=encoding, game=game_name)
        self.invalid = False
        self.tty = sys.stdout.isatty()

    def report(self, record: Record, problem: Problem, err: bool = False) -> None:
        line = problem_line(record.source, record.index, problem)
        if self.tty:
            line = click.style(line, fg="red")
            excerpt = caret(self.inputs.source_lines(record.source), problem)
            if excerpt:
                line += "\n" + excerpt
        click.echo(line, err=err)

    def finish(self) -> None:
        for message in self.inputs.input_errors:
            click.echo(message, err=True)
        if self.inputs.input_errors:
            sys.exit(2)
        sys.exit(1 if self.invalid else 0)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(notation.__version__, prog_name="notation")
def cli() -> None:
    """Read, check, replay, convert and compare records of played games."""


# -- validate ------------------------------------------------------------------

@cli.command()
@PATHS
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the problems.")
@GAME_OPTION
@ENCODING_OPTION
def validate(paths: tuple[str, ...], as_json: bool, quiet: bool, game_name: str | None,
             encoding: str) -> None:
    """Check every game of every record file against its rules."""
    ctx = Context(game_name, encoding)
    for records in ctx.inputs.read(paths):
        for record in records:
            outcome = run(record)
            ctx.invalid |= not outcome.valid
            if as_json:
                click.echo(json.dumps({
                    "file": record.source, "index": record.index, "game": record.game,
                    "valid": outcome.valid, "plies": outcome.plies,
                    "errors": [p.as_json() for p in outcome.problems]}))
                continue
            if outcome.valid:
                if not quiet:
                    click.echo(f"{record.source}: game {record.index}: ok, {outcome.plies} plies")
                continue
            for problem in outcome.problems:
                ctx.report(record, problem)
    ctx.finish()


# -- replay --------------------------------------------------------------------

@cli.command()
@PATHS
@click.option("--ply", type=click.IntRange(min=0), help="Show the state after this ply (default: the end).")
@click.option("--every", is_flag=True, help="Show the state after every ply.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game (the replay contract).")
@click.option("--color/--no-color", default=None, help="Colour the board (default: on a terminal).")
@click.option("--perspective", help="Flows: draw the board from P1..P6 or side:K.")
@click.option("--view", "view_name", type=click.Choice(["basic", "full"]),
              help="Sanguine: the basic view or the full state (default).")
@GAME_OPTION
@ENCODING_OPTION
def replay(paths: tuple[str, ...], ply: int | None, every: bool, as_json: bool,
           color: bool | None, perspective: str | None, view_name: str | None,
           game_name: str | None, encoding: str) -> None:
    """Replay records and show the board after a ply, after every ply, or at the end."""
    ctx = Context(game_name, encoding)
    color = ctx.tty if color is None else color
    view = {k: v for k, v in {"perspective": perspective, "view": view_name}.items()
            if v is not None}

    def draw(game: notation.Game, state: Any) -> None:
        try:
            click.echo(game.render(state, color, **view), color=color)
        except NotationError as exc:
            raise click.UsageError(str(exc)) from None

    for records in ctx.inputs.read(paths):
        for record in records:
            outcome = run(record, ply)
            ctx.invalid |= not outcome.valid
            if as_json:
                click.echo(json.dumps(replay_json(outcome)))
                continue
            game = outcome.game
            click.echo(f"{record.source}: game {record.index}"
                       + (f" ({game.name})" if game else ""))
            if game is not None and every and outcome.state is not None:
                click.echo("start:")
                draw(game, game.start(record))
                try:  # the problems are reported below; the steps stop before the first
                    for step in record.replay(until=outcome.plies):
                        click.echo(f"\nafter ply {step.ply} ({game.format_event(step.event)}):")
                        draw(game, step.state)
                except ReplayError:
                    pass
            elif game is not None and outcome.state is not None:
                note = ""
                if ply is not None and outcome.plies < ply and outcome.valid:
                    note = f" (the record has only {outcome.plies} plies)"
                click.echo(f"after ply {outcome.plies}{note}:")
                draw(game, outcome.state)
            for problem in outcome.problems:
                ctx.report(record, problem)
    ctx.finish()


# -- diff ----------------------------------------------------------------------

@cli.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--ply", type=click.IntRange(min=0), help="Compare the states after this ply.")
@click.option("--position", "positions", is_flag=True,
              help="A and B are position strings (needs --game).")
@GAME_OPTION
@ENCODING_OPTION
def diff(a: str, b: str, ply: int | None, positions: bool, game_name: str | None,
         encoding: str) -> None:
    """Compare two records (or two positions): first differing event, differing squares.

    Exit 0 when they are the same, 1 when they differ, 2 on errors.
    """
    ctx = Context(game_name, encoding)
    if positions:
        game = registry.get(game_name) if game_name else None
        if game is None:
            raise click.UsageError("--position needs --game GAME")
        try:
            sa, sb = game.read_position(a), game.read_position(b)
        except NotationError as exc:
            raise click.UsageError(f"bad position: {exc}") from None
        changes = diff_states(game, sa, sb)
        for change in changes:
            click.echo(f"  {change.name}: {change.a or '-'} | {change.b or '-'}")
        click.echo("positions are the same" if not changes else
                   f"{len(changes)} difference{'s' * (len(changes) != 1)}")
        sys.exit(1 if changes else 0)
    files = list(ctx.inputs.read((a,))) + list(ctx.inputs.read((b,)))
    if ctx.inputs.input_errors or len(files) != 2:
        ctx.finish()
    left, right = files
    differ = len(left) != len(right)
    if differ:
        click.echo(f"{a} has {len(left)} games, {b} has {len(right)}")
    for ra, rb in zip(left, right):
        game = game_of(ra)
        if game is None or game is not game_of(rb):
            click.echo(f"game {ra.index}: cannot compare a {ra.game or 'unknown'} record "
                       f"with a {rb.game or 'unknown'} record")
            differ = True
            continue
        result = diff_records(ra, rb, game, ply)
        if result.same:
            click.echo(f"game {ra.index}: same events; same state after ply {result.ply_a}")
            continue
        differ = True
        if result.first_ply is not None:
            click.echo(f"game {ra.index}: first difference at ply {result.first_ply}: "
                       f"{result.event_a or '(no event)'} | {result.event_b or '(no event)'}")
        else:
            click.echo(f"game {ra.index}: same events")
        where = (f"after ply {result.ply_a}" if result.ply_a == result.ply_b
                 else f"after ply {result.ply_a} | {result.ply_b}")
        click.echo(f"  {len(result.cells)} difference{'s' * (len(result.cells) != 1)} {where}:")
        for change in result.cells:
            click.echo(f"  {change.name}: {change.a or '-'} | {change.b or '-'}")
    sys.exit(1 if differ else 0)


# -- fmt -----------------------------------------------------------------------

@cli.command()
@PATHS
@click.option("--in-place", "-i", is_flag=True, help="Rewrite the files (atomically).")
@click.option("--check", is_flag=True, help="Exit 1 if any file is not in canonical form.")
@GAME_OPTION
@ENCODING_OPTION
def fmt(paths: tuple[str, ...], in_place: bool, check: bool, game_name: str | None,
        encoding: str) -> None:
    """Write records in canonical form: Game tag first, events in canonical spelling."""
    if in_place and check:
        raise click.UsageError("--in-place and --check exclude each other")
    ctx = Context(game_name, encoding)
    _rewrite(ctx, paths, lambda r: format_record(r, game_of(r)), "reformatted", in_place, check)
    ctx.finish()


def _rewrite(ctx: Context, paths: tuple[str, ...], transform: Callable[[Record], str],
             verb: str, in_place: bool, check: bool = False) -> None:
    """Shared by fmt and convert: refuse unreadable records, then print, check or rewrite."""
    for records in ctx.inputs.read(paths):
        unreadable = [r for r in records if r.game_problem
                      or any(isinstance(i, Malformed) for i in r.items + r.tags)]
        if unreadable:
            ctx.invalid = True
            for record in unreadable:
                for problem in structure_problems(record):
                    ctx.report(record, problem, err=True)
            click.echo(f"{records.source}: not {verb}: fix the syntax errors first", err=True)
            continue
        text = "\n".join(transform(r) for r in records)
        if not (check or in_place):
            click.echo(text, nl=False)
            continue
        if records.source == "<stdin>":
            raise click.UsageError("--in-place and --check need files, not standard input")
        if "\n".join(ctx.inputs.source_lines(records.source)) + "\n" == text:
            continue
        if check:
            click.echo(f"{records.source}: would be {verb}")
            ctx.invalid = True
        else:
            _write_atomically(records.source, text, ctx.inputs.encoding)
            click.echo(f"{records.source}: {verb}")


def _write_atomically(path: str, text: str, encoding: str) -> None:
    """Write a sibling temporary file, then rename it over ``path``."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".notation-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="\n") as fh:
            fh.write(text)
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# -- legal ---------------------------------------------------------------------

@cli.command()
@click.argument("path", metavar="PATH")
@click.option("--ply", type=click.IntRange(min=0), help="After this ply (default: the end).")
@click.option("--count", is_flag=True, help="Print only how many legal moves there are.")
@click.option("--tile", type=click.IntRange(0, 3), help="Flows: the drawn tile type (default: each in the bag).")
@GAME_OPTION
@ENCODING_OPTION
def legal(path: str, ply: int | None, count: bool, tile: int | None, game_name: str | None,
          encoding: str) -> None:
    """List the legal moves of the player to move."""
    ctx = Context(game_name, encoding)
    options = {} if tile is None else {"tile": tile}
    for records in ctx.inputs.read((path,)):
        for record in records:
            outcome = run(record, ply)
            if not outcome.valid:
                ctx.invalid = True
                for problem in outcome.problems:
                    ctx.report(record, problem)
                continue
            game, state = outcome.game, outcome.state
            try:
                moves = game.legal_moves(state, **options)
            except NotationError as exc:
                raise click.UsageError(str(exc)) from None
            who = game.to_move(state)
            head = (f"{record.source}: game {record.index}, after ply {outcome.plies}: "
                    + (f"{who} to move, {len(moves)} legal moves" if who else
                       "the game is over, no legal moves"))
            click.echo(head)
            if not count and moves:
                words = [game.format_event(m) for m in moves]
                for i in range(0, len(words), 8):
                    click.echo("  " + " ".join(words[i:i + 8]))
    ctx.finish()


# -- random --------------------------------------------------------------------

@cli.command("random")
@click.argument("game_name", metavar="GAME")
@click.option("--players", type=click.IntRange(min=1), help="Number of players.")
@click.option("--seed", type=int, default=None, help="Random seed (default: a fresh one).")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many games.")
@click.option("--red", "red_deck", metavar="DECK", help="Sanguine: Red's deck file.")
@click.option("--blue", "blue_deck", metavar="DECK", help="Sanguine: Blue's deck file.")
@click.option("--rows", type=click.IntRange(min=1), help="Sanguine: board rows (default 5).")
@click.option("--cols", type=click.IntRange(min=3), help="Sanguine: board columns, odd (default 7).")
@click.option("--hand-size", type=click.IntRange(min=1), help="Sanguine: starting hand size.")
def random_games(game_name: str, players: int | None, seed: int | None, count: int,
                 red_deck: str | None, blue_deck: str | None, rows: int | None,
                 cols: int | None, hand_size: int | None) -> None:
    """Print random complete legal games, in canonical form."""
    game = registry.get(game_name)
    if game is None:
        known = ", ".join(g.name for g in registry.games())
        raise click.UsageError(f"unknown game {game_name!r}; known games: {known}")
    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    options = {"players": players, "red": red_deck, "blue": blue_deck, "rows": rows,
               "cols": cols, "hand_size": hand_size}
    rng = random.Random(seed)
    out = []
    for n in range(count):
        try:
            record = game.random_record(rng, options)
        except NotationError as exc:
            raise click.UsageError(str(exc)) from None
        record.tags += [Tag("Seed", str(seed)), Tag("Round", str(n + 1))]
        out.append(format_record(record, game))
    click.echo("\n".join(out), nl=False)


@cli.group()
def deck() -> None:
    """Check and show Sanguine deck files."""


@deck.command("check")
@click.argument("paths", nargs=-1, required=True, metavar="DECK...")
def deck_check(paths: tuple[str, ...]) -> None:
    """Validate deck files: one precise error per problem."""
    from notation.games.sanguine.deck import DeckError, load_deck
    invalid = unreadable = False
    for path in paths:
        try:
            cards = load_deck(path)
        except InputError as exc:
            click.echo(str(exc), err=True)
            unreadable = True
            continue
        except DeckError as exc:
            invalid = True
            for problem in exc.problems:
                click.echo(f"{path}:{problem.line}:1: error: {problem.message}")
            continue
        designs = len({c for c in cards.cards})
        click.echo(f"{path}: ok, {len(cards)} cards ({designs} designs), fits boards of up to "
                   f"{len(cards)} cells, hand size up to {len(cards) // 3}")
    sys.exit(2 if unreadable else 1 if invalid else 0)


@deck.command("show")
@click.argument("path", metavar="DECK")
@click.option("--blue", is_flag=True, help="Mirror the grids as Blue plays them.")
def deck_show(path: str, blue: bool) -> None:
    """Draw every card's influence grid (# the card, * influenced)."""
    from notation.games.sanguine.deck import DeckError, draw_grid, load_deck
    try:
        cards = load_deck(path)
    except InputError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    except DeckError as exc:
        for problem in exc.problems:
            click.echo(f"{path}:{problem.line}:1: error: {problem.message}")
        sys.exit(1)
    seen = set()
    for card in cards.cards:
        if card in seen:
            continue
        copies = sum(1 for c in cards.cards if c == card)
        seen.add(card)
        click.echo(f"{card.name}  cost {card.cost}  value {card.value}"
                   + (f"  (x{copies})" if copies > 1 else ""))
        for line in draw_grid(card, blue).splitlines():
            click.echo("  " + line)


# -- convert and coords ----------------------------------------------------------

@cli.command()
@PATHS
@click.option("--perspective", help="Flows: P1..P6, side:K, or mover; Sanguine: red or blue.")
@click.option("--choices", type=click.Choice(["inline", "separate"]),
              help="Philosophy: choices in brackets, or as separate events.")
@click.option("--in-place", "-i", is_flag=True, help="Rewrite the files (atomically).")
@GAME_OPTION
@ENCODING_OPTION
def convert(paths: tuple[str, ...], perspective: str | None, choices: str | None,
            in_place: bool, game_name: str | None, encoding: str) -> None:
    """Rewrite records another way without changing what they mean (comments kept)."""
    options = {k: v for k, v in {"perspective": perspective, "choices": choices}.items()
               if v is not None}
    ctx = Context(game_name, encoding)

    def transform(record: Record) -> str:
        game = game_of(record)
        try:
            return format_record(game.convert(record, **options), game)
        except NotationError as exc:
            raise click.UsageError(f"{record.source}: game {record.index}: {exc}") from None

    _rewrite(ctx, paths, transform, "converted", in_place)
    ctx.finish()


@cli.command()
@click.argument("coord", metavar="COORD")
@click.option("--to", "to", required=True, help="P1..P6, side:K or internal.")
@click.option("--seats", help='Each player\'s side in turn order, as in the [Seats] tag ("0 3").')
@click.option("--players", type=click.IntRange(2, 6), help="Number of players (default: from --seats, else 2).")
@click.option("--game", "game_name", default="flows", show_default=True, metavar="GAME")
def coords(coord: str, to: str, seats: str | None, players: int | None, game_name: str) -> None:
    """Convert one coordinate between player views: P2A4 --to P1 prints P1G4."""
    game = registry.get(game_name)
    if game is None:
        raise click.UsageError(f"unknown game {game_name!r}")
    try:
        click.echo(game.convert_coordinate(coord, to, {"seats": seats, "players": players}))
    except (NotationError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None


# -- games ---------------------------------------------------------------------

@cli.command()
def games() -> None:
    """List the registered games, their file extensions and tags."""
    for game in registry.games():
        click.echo(f"{game.name}  ({' '.join(game.extensions)})  {game.title}")
        for key, meaning in game.tags.items():
            click.echo(f"    [{key}]  {meaning}")


def main() -> None:
    """Entry point: never a traceback, whatever the input."""
    try:
        cli.main(prog_name="notation", standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)
    except Exception as exc:  # a bug of ours: still one line, never a traceback
        click.echo(f"notation: internal error: {exc.__class__.__name__}: {exc}", err=True)
        sys.exit(2)
