"""The commands' shared context: a record's guard keeps a bug of ours to that record's
error, and lets through what ends the whole run."""
from __future__ import annotations

import click
import pytest

from cli.common import Context
from cli.signals import OutputGone
from notation.core.game import MissingCapability
from notation.core.tree import GameNode


def _context() -> Context:
    return Context(None, "utf-8", False)


def test_a_bug_in_a_guarded_record_is_that_records_internal_error(capsys) -> None:
    ctx = _context()
    record = GameNode("tilewe", source="a.tilewe")
    with ctx.guard(record):
        raise ZeroDivisionError("boom")
    assert ctx.internal and not ctx.invalid
    assert "a.tilewe:1:1: internal error" in capsys.readouterr().err
    with ctx.guard(record):
        pass  # (nothing raised: nothing said)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("raised", [
    KeyboardInterrupt(), SystemExit(3), click.UsageError("bad"), click.exceptions.Exit(1),
    OutputGone(BrokenPipeError()), MissingCapability("flows has no board symmetries")],
    ids=lambda e: type(e).__name__)
def test_what_ends_the_run_goes_through_a_guard(raised: BaseException, capsys) -> None:
    ctx = _context()
    with pytest.raises(type(raised)):
        with ctx.guard(GameNode("tilewe")):
            raise raised
    assert not ctx.internal and capsys.readouterr().err == ""
