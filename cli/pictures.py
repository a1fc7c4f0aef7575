"""``render``: a position as SVG, or records as a self-contained HTML replay viewer."""
from __future__ import annotations

import contextlib
import itertools
import sys
from typing import Any, Callable, Iterator

import click

from notation.core.game import needed
from notation.core.errors import NotationError
from notation.core.replay import game_of, run

from .archive import OUTPUT_OPTION, Sink
from .common import Context, color_option, plural, reading_options, shown, warn
from .game_options import WithGameOptions
from .inputs import Inputs
from .ply_option import note_past_end, ply_option
from .progress import Progress, terminal

#: Games on one HTML page unless ``--max-games`` says otherwise: a page stays a few
#: megabytes and is built in seconds, whatever the archive's size.
MAX_GAMES = 50
#: The page says how many games the input holds, counted (headers only) up to this many.
COUNT_AT_MOST = 10_000


@click.command(cls=WithGameOptions)
@click.argument("path", metavar="PATH")
@ply_option("The position after ply N (default: the end, or before the first error).")
@click.option("--index", "game_index", type=click.IntRange(min=1), metavar="K",
              help="Which game of the file to draw (default: the first). With --html: "
                   "the page's first game (alone: that game only).")
@click.option("--html", "as_html", is_flag=True,
              help=f"One self-contained HTML page to step through the games of the file "
                   f"(the first {MAX_GAMES}; see --max-games and --index).")
@click.option("--max-games", type=click.IntRange(min=0), metavar="N",
              help=f"With --html: at most N games on the page (default: {MAX_GAMES}, or 1 "
                   f"with --index; 0: every game, however big the page).")
@OUTPUT_OPTION
@reading_options
@color_option
def render(path: str, ply: int | None, game_index: int | None, as_html: bool,
           max_games: int | None, output: str | None, game_name: str | None, encoding: str,
           color: bool | None, game_options: dict[str, Any]) -> None:
    """The SVG goes to standard output, or to -o FILE.svg.

    An invalid record is drawn as it stands before its first error; the
    error is reported as everywhere (exit 1).

    With --html, one page holds the first 50 games of the file (--max-games N
    for more or fewer; --index K to begin at game K, or to show game K alone);
    the page and a warning say how many games were left out. Only the games
    on the page are replayed, and they alone set the exit status.
    """
    ctx = Context(game_name, encoding, color)
    options = game_options  # the games' own (a view, a side), declared by each game
    if as_html and ply is not None:
        raise click.UsageError("--ply is for SVG; the viewer has every ply")
    if not as_html and max_games is not None:
        raise click.UsageError("--max-games is for --html")
    records = (r for group in ctx.inputs.read((path,)) for r in group)
    if as_html:
        limit = max_games if max_games is not None else 1 if game_index else MAX_GAMES
        _html(ctx, records, path, game_index or 1, limit, options, output)
    else:
        _svg_of(ctx, records, path, game_index or 1, ply, options, output)
    ctx.finish()


def _svg_of(ctx: Context, records: Iterator[Any], path: str, game_index: int,
            ply: int | None, options: dict[str, Any], output: str | None) -> None:
    seen = 0
    for record in records:  # read only as far as the game wanted
        seen += 1
        if seen == game_index:
            _svg(ctx, record, ply, options, output)
            return
    if not ctx.inputs.input_errors:
        raise _no_such_game(path, game_index, seen)


def _no_such_game(path: str, game_index: int, seen: int) -> click.UsageError:
    return click.UsageError(f"--index {game_index}: {shown(path)} has {plural(seen, 'game')}"
                            if seen else f"{shown(path)}: no games to draw")


def _svg(ctx: Context, record: Any, ply: int | None, options: dict[str, Any],
         output: str | None) -> None:
    picture = None
    with ctx.guard(record):
        _drawable(record, "render")
        outcome = run(record, ply)
        for problem in outcome.problems:
            ctx.report(record, problem, err=True)
        ctx.invalid |= not outcome.valid
        if outcome.game is None or outcome.state is None:
            return  # nothing to draw; the problems say why
        note_past_end(outcome, ply)
        try:
            picture = outcome.game.svg(outcome.state, **options)
        except NotationError as exc:
            raise click.UsageError(str(exc)) from None
    if picture is not None:
        _write(ctx, picture + "\n", output)


def _html(ctx: Context, records: Iterator[Any], path: str, first: int, limit: int,
          options: dict[str, Any], output: str | None) -> None:
    """Games ``first`` .. ``first + limit - 1`` (``limit`` 0: to the end) on one page.

    The archive is read no further than the last game wanted (its games
    counted beforehand from their headers, or afterwards for stdin), and
    only the games on the page are held, so time and memory follow ``limit``.
    """
    from notation.render.viewer import page
    total = _count_games(ctx, path)
    if total is not None and 0 < total < first and total <= COUNT_AT_MOST:
        raise _no_such_game(path, first, total)
    with _progress(_page_size(first, limit, total)) as step:
        games, seen, complete = _page_games(ctx, records, first, limit, options, step)
    if ctx.inputs.input_errors or (not games and ctx.internal):
        return  # said by ctx.finish(); nothing is written
    if not games:
        raise _no_such_game(path, first, seen)
    if complete:
        total = seen
    elif total is None:  # stdin: count what follows the page, as far as is cheap
        total = seen + sum(1 for _ in itertools.islice(records, max(COUNT_AT_MOST + 1 - seen, 0)))
    total = max(total, seen)
    note = _left_out(first, seen - first + 1, total, more=not complete and total > COUNT_AT_MOST)
    if note:
        warn(f"{path}: warning: {note}")
    _write(ctx, page(games, title=path, note=note), output)


def _page_games(ctx: Context, records: Iterator[Any], first: int, limit: int,
                options: dict[str, Any],
                step: Callable[[], None]) -> tuple[list[dict[str, Any]], int, bool]:
    """The page's games' data, the games read, and whether that was all of them (the
    reading stops at the page's last game)."""
    games: list[dict[str, Any]] = []
    seen = 0
    for record in records:
        seen += 1
        if seen < first:
            continue  # read, not replayed
        data = _game(ctx, record, seen, options)
        if data is not None:
            games.append(data)
        step()
        if seen - first + 1 == limit:
            return games, seen, False
    return games, seen, True


def _game(ctx: Context, record: Any, number: int,
          options: dict[str, Any]) -> dict[str, Any] | None:
    """One game's data for the page (None after a bug of ours, reported), its problems
    reported as everywhere; ``number``: its place in the input."""
    from notation.render.viewer import game_data
    with ctx.guard(record):
        _drawable(record, "render --html")
        outcome = run(record)
        for problem in outcome.problems:
            ctx.report(record, problem, err=True)
        ctx.invalid |= not outcome.valid
        try:
            return dict(game_data(record, outcome, **options), number=number)
        except NotationError as exc:
            raise click.UsageError(str(exc)) from None
    return None


def _drawable(record: Any, feature: str) -> None:
    """Refuse ``feature`` before any work when the record's game has no pictures."""
    game = game_of(record)
    if game is not None:
        needed(game, "pictures", feature)


def _count_games(ctx: Context, path: str) -> int | None:
    """The input's games, read for their headers only (cheap) and counted up to one more
    than COUNT_AT_MOST, or as far as it can be read (the reading proper reports why
    not, if it gets there); None for stdin, which cannot be read twice."""
    if path == "-":
        return None
    counter = Inputs(encoding=ctx.inputs.encoding, game=ctx.inputs.game)
    headers = (r for group in counter.read((path,), headers=True) for r in group)
    return sum(1 for _ in itertools.islice(headers, COUNT_AT_MOST + 1))


def _page_size(first: int, limit: int, total: int | None) -> int | None:
    """How many games the page will hold, when that is known beforehand (for progress)."""
    left = None if total is None or total > COUNT_AT_MOST else max(total - first + 1, 0)
    if not limit:
        return left
    return limit if left is None else min(limit, left)


def _left_out(first: int, shown: int, total: int, more: bool) -> str | None:
    """``showing games 1-50 of 1,000; ...`` when the page does not hold every game
    (``more``: the input has more than ``COUNT_AT_MOST`` games, not all counted)."""
    if first == 1 and shown == total:
        return None
    of = f"more than {COUNT_AT_MOST:,}" if more else f"{total:,}"
    games = f"game {first:,}" if shown == 1 else f"games {first:,}-{first + shown - 1:,}"
    return f"showing {games} of {of}; choose others with --index K and --max-games N"


@contextlib.contextmanager
def _progress(length: int | None) -> Iterator[Callable[[], None]]:
    """A step per game drawn, shown on stderr when it is a terminal and there is more
    than one game to wait for (the line is erased before any other output, and at the end)."""
    if not (length and length > 1 and terminal(sys.stderr)):
        yield lambda: None
        return
    bar = Progress(None, "drawing games", goal=length)
    bar.draw()
    try:
        yield bar.count
    finally:
        bar.close()


def _write(ctx: Context, text: str, output: str | None) -> None:
    with Sink(ctx, output) as sink:  # whatever happens, no temporary is left
        sink.write_text(text)
        sink.close(keep=True)
