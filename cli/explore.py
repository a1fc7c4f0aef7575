"""``notation explore``: an archive's opening tree (:mod:`notation.explore`).

Each valid game's mainline is filed up to ``--depth`` plies; an invalid game is reported
as ``validate`` reports it (stderr) and left out, and the run ends with exit 1. The tree
is written as text (default), JSON (``--json``) or a self-contained HTML page
(``--html``), to standard output or ``-o FILE`` (written to a temporary, then renamed).
"""
from __future__ import annotations

import functools
import json

import click

from notation.core import registry
from notation.core.game import needed
from notation.core.replay import game_of
from notation.explore import (DEFAULT_DEPTH, Filing, OpeningTree, explored_game, page, tree_json,
                              tree_lines)
from notation.parallel import WORKER_WAIT
from notation.parallel import runs as runner

from . import parallel
from .archive import OUTPUT_OPTION, Sink
from .common import JOBS_OPTION, PATHS, Context, reading_options
from .progress import watch


def explored(ctx: Context, paths: tuple[str, ...], depth: int, symmetric: bool,
             drawn: bool = False, jobs: int | None = 1, scheduler: str | None = None,
             worker_timeout: float = WORKER_WAIT) -> OpeningTree:
    """The tree of every valid game of ``paths``; the invalid ones reported. ``drawn``:
    its positions will be drawn (a game without pictures is refused at its first record).
    The games are filed where they are replayed (worker processes, a Dask cluster) when
    that pays, and the tree is grown here, in input order."""
    tree = OpeningTree(depth, symmetric)
    task = runner.Task(functools.partial(explored_game, depth, symmetric), headers=True)
    spread = parallel.spread(ctx, paths, lambda: task, jobs, scheduler, worker_timeout)
    if spread is not None:
        checked: set[str] = set()
        for outcome in spread:
            name = outcome.game_name
            if drawn and outcome.valid and name is not None and name not in checked:
                checked.add(name)
                needed(registry.require(name), "pictures", "explore --html")
            if not outcome.valid or not isinstance(outcome.data, Filing):
                ctx.report_outcome(outcome, err=True)
                ctx.invalid = True
                tree.invalid += 1
                continue
            tree.file(outcome.data)
        return tree
    for records in ctx.inputs.read(paths, headers=True):
        for record in records:
            with ctx.guard(record):
                game = game_of(record) if drawn else None
                if game is not None:
                    needed(game, "pictures", "explore --html")
                outcome = task.apply(record)
                if not outcome.valid or not isinstance(outcome.data, Filing):
                    ctx.report_outcome(outcome, err=True)
                    ctx.invalid = True
                    tree.invalid += 1
                    continue
                tree.file(outcome.data, outcome.game)
    return tree


@click.command()
@PATHS
@click.option("--depth", type=click.IntRange(min=0), default=DEFAULT_DEPTH, show_default=True,
              metavar="N", help="Plies from the start the tree holds (memory grows with the "
                                "distinct positions up to this depth, not with the archive).")
@click.option("--symmetric", is_flag=True,
              help="Tilewe: positions equal under the board's eight symmetries meet, and "
                   "mirrored moves count as one. Other games have no symmetries: no change.")
@click.option("--json", "as_json", is_flag=True, help="The tree as one JSON object.")
@click.option("--html", "as_html", is_flag=True,
              help="The tree as a self-contained HTML page to browse, the board drawn.")
@OUTPUT_OPTION
@JOBS_OPTION
@parallel.cluster_options
@reading_options
def explore(paths: tuple[str, ...], depth: int, symmetric: bool, as_json: bool, as_html: bool,
            output: str | None, jobs: int | None, scheduler: str | None,
            worker_timeout: float, game_name: str | None, encoding: str) -> None:
    """From each start: the moves played, how many games went each way, and how they
    ended for each seat (wins alone, shared wins, losses, no winner, unfinished; the mean
    final score where the game keeps scores).

    Positions reached by different move orders meet. Only each game's mainline counts
    (variations are analysis, not games played). An invalid game is reported and left
    out (exit 1).
    """
    if as_json and as_html:
        raise click.UsageError("--json and --html are two forms of output: choose one")
    ctx = Context(game_name, encoding, None)
    watch(ctx, paths, True)
    tree = explored(ctx, paths, depth, symmetric, as_html, jobs, scheduler, worker_timeout)
    if as_html:
        title = paths[0] if len(paths) == 1 else f"{paths[0]} and {len(paths) - 1} more"
        text = page(tree, title=f"{title} · opening tree")
    elif as_json:
        # (a tree made here, so no container is in it twice: the check would double the
        # time of writing it, measured)
        text = json.dumps(tree_json(tree), ensure_ascii=False, check_circular=False)
    else:
        text = "\n".join(tree_lines(tree))
    with Sink(ctx, output) as sink:
        sink.write_text(text + "\n" if text else "")
        sink.close(keep=True)
    ctx.finish()


__all__ = ["explore"]
