"""``--ply N``: the position after ply N, in every command that takes it (``replay``,
``legal``, ``render``, ``diff``), and the one rule for a ply past a record's end.

Asking past the end is no error: the command works on the record's end, as it
would without ``--ply``, and says so once on standard error
(``FILE: warning: game K has only 3 plies; --ply 99 is past its end``); the exit
status stays the record's verdict's (0 for a valid record), in every command.
A record with a problem before that ply stops there, and its problem is reported
as everywhere.
"""
from __future__ import annotations

from typing import Any, Callable

import click

from notation.core.outcome import Outcome

from .common import plural, warn


def ply_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--ply N`` (N >= 0) with the command's own words for what it does at N."""
    return click.option("--ply", type=click.IntRange(min=0), metavar="N",
                        help=help_text + " A ply past the end: the end, with a warning.")


def note_past_end(outcome: Outcome, ply: int | None) -> None:
    """The warning for a valid record that ends before ``ply`` (nothing otherwise)."""
    if ply is not None and outcome.valid and outcome.plies < ply:
        warn(f"{outcome.file}: warning: game {outcome.index} has only "
             f"{plural(outcome.plies, 'ply', 'plies')}; --ply {ply} is past its end")
