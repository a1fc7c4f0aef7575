"""``notation merge``: annotated copies of one game merged into one tree.

Every game of every input is a copy of the same game from the same start, under the
same rules; each is laid over the ones before it (:mod:`notation.archive.merge`).
Like ``fmt``, it writes nothing unless every copy passed: a copy with a problem,
or of another game, start or rules, is listed (exit 1), as is a merged game no
record could hold (it is read back and replayed before it is written); an input that
cannot be read is an input error (exit 2). Conflicts (a tag or a command with another value) are
warnings: the first value is kept.
"""
from __future__ import annotations

from typing import NoReturn

import click

from notation.archive.merge import MergeError, merge_trees, merged_text
from notation.core.errors import Problem, ProblemKind
from notation.core.replay import run
from notation.core.tree import GameNode, TreeError

from .archive import Sink, joining_options
from .common import Context, plural, warn
from .progress import watch


@click.command()
@joining_options
def merge(paths: tuple[str, ...], output: str | None, game_name: str | None, encoding: str,
          color: bool | None) -> None:
    """Every line, comment, annotation and command of each copy is kept; a tag or command
    given two values keeps the first (a warning)."""
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, True)
    trees, refused = _copies(ctx, paths)
    if not trees and not refused and not ctx.inputs.input_errors:
        ctx.inputs.input_errors.append("merge: error: no games to merge")
    if refused or ctx.internal or ctx.inputs.input_errors:
        _nothing_written(ctx, refused)
    try:
        merged, conflicts = merge_trees(trees)
    except MergeError as exc:
        for refusal in exc.refusals:
            warn(refusal.describe("error"))
        _nothing_written(ctx, len(exc.refusals))
    try:
        text = merged_text(merged)
    except MergeError as exc:  # the copies were each fine: what merging them made is not
        warn(exc.refusals[0].describe("error"))
        ctx.invalid = True
        _nothing_written(ctx, 0)
    for conflict in conflicts:
        warn(conflict.describe("warning"))
    with Sink(ctx, output) as sink:
        sink.write_text(text)
        sink.close()
    ctx.finish()


def _copies(ctx: Context, paths: tuple[str, ...]) -> tuple[list[GameNode], int]:
    """The tree of every game read, and how many were refused for their problems (said)."""
    trees: list[GameNode] = []
    refused = 0
    for records in ctx.inputs.read(paths):
        for record in records:
            with ctx.guard(record):
                problems = run(record).problems
                if not problems:
                    try:
                        record.variations  # the tree is made here: one it cannot hold says so
                        trees.append(record)
                    except TreeError as exc:
                        problems = [Problem(ProblemKind.SYNTAX, exc.line, exc.column, 0, None,
                                            exc.message)]
                for problem in problems:
                    ctx.report(record, problem, err=True)
                refused += bool(problems)
    return trees, refused


def _nothing_written(ctx: Context, refused: int) -> NoReturn:
    """End the run without writing: refused copies (``refused``, said) are exit 1, input
    errors exit 2."""
    if refused:
        ctx.invalid = True
        warn(f"merge: not merged: {plural(refused, 'game')} refused (listed above); "
             f"nothing was written")
    ctx.finish()
    raise AssertionError("ctx.finish() exits")  # pragma: no cover
