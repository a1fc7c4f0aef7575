"""Progress on a terminal while an archive is read, and the closing summary of a run."""
from __future__ import annotations

import os
import sys
import time
from typing import Any

import click

from .common import plural, say


class Tally:
    """Games, verdicts and plies of a run; prints the summary and drives the progress bar.

    The bar (click's own) goes to stderr only when stderr is a terminal and the
    run is neither ``--quiet`` nor ``--json``: bytes of the inputs read, games
    done, rate and time left.
    """

    def __init__(self, paths: list[str], show_bar: bool) -> None:
        self.games = self.valid = self.invalid = self.plies = 0
        self.began = time.perf_counter()
        self.bar: Any = None
        self.read_before = 0  # bytes of the inputs already finished
        self.position = 0
        if show_bar and _terminal(sys.stderr):
            sizes = [_size(p) for p in paths]
            if all(s is not None for s in sizes) and sum(sizes):
                self.bar = click.progressbar(
                    length=sum(sizes), file=sys.stderr, label="reading", show_eta=True,
                    show_percent=True, item_show_func=self._status, width=24)
                self.bar.__enter__()

    def _status(self, _item: Any) -> str:
        seconds = max(time.perf_counter() - self.began, 1e-9)
        done = self.read_before + self.position
        return f"{self.games:,} games, {done / seconds / 1e6:.1f} MB/s"

    def count(self, valid: bool, plies: int) -> None:
        self.games += 1
        self.valid += valid
        self.invalid += not valid
        self.plies += plies

    def at(self, position: int) -> None:
        """The current input has been read up to byte ``position``."""
        if self.bar is not None and position > self.position:
            self.bar.update(position - self.position, None)
            self.position = position

    def next_input(self) -> None:
        self.read_before += self.position
        self.position = 0

    def close(self) -> None:
        if self.bar is not None:
            self.bar.render_finish()
            self.bar = None

    def summary(self) -> None:
        """``12,000 games: 11,998 valid, 2 invalid; 704,496 plies in 18.7 s`` (stderr)."""
        self.close()
        if self.games > 1:
            seconds = time.perf_counter() - self.began
            say(f"{plural(self.games, 'game')}: {self.valid:,} valid, {self.invalid:,} invalid; "
                f"{plural(self.plies, 'ply', 'plies')} in {seconds:.1f} s", err=True)


def _terminal(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, OSError):
        return False


def _size(path: str) -> int | None:
    """Bytes of a file, or of the record files under a folder; None for stdin."""
    if path == "-":
        return None
    try:
        if not os.path.isdir(path):
            return os.stat(path).st_size
        from notation.core import registry
        known = registry.extensions()
        return sum(os.stat(os.path.join(root, name)).st_size
                   for root, _dirs, files in os.walk(path)
                   for name in files if name.lower().endswith(known))
    except OSError:
        return None
