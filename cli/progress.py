"""Live progress on a terminal while a run reads its inputs, and the closing summary.

One line on stderr, redrawn in place a few times a second: how far through
the inputs (when their size is known), games done, the reading rate and the
time left. Only when stderr is a terminal, and never for ``--quiet`` or
``--json``. Whatever else is printed to the terminal first erases the line
(:func:`notation.cli.common.emit` erases the lines in ``live_lines``), so
output and bar never mix. Workers' results move it as they come back, so it moves the same
whatever ``--jobs``.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Any

from .common import is_terminal, live_lines, plural, say

#: Seconds between two drawings of the line.
REDRAW = 0.1


terminal = is_terminal


class Progress:
    """Bytes read of ``total`` (None: unknown, as for stdin), games done, rate, time left."""

    def __init__(self, total: int | None, label: str = "reading", unit: str = "game",
                 goal: int | None = None) -> None:
        self.total, self.label, self.unit = total, label, unit
        self.goal = goal  # how many games in all, when counted rather than read
        self.began = time.monotonic()
        self.drawn_at = 0.0
        self.done_before = 0   # bytes of the inputs already finished
        self.position = 0      # bytes read of the current input
        self.games = 0
        self.visible = False
        live_lines[:] = [self]

    @property
    def read(self) -> int:
        return self.done_before + self.position

    def at(self, position: int) -> None:
        """The current input has been read up to byte ``position``."""
        self.position = max(self.position, position)
        self._maybe_draw()

    def advance(self, size: int = 0, games: int = 0) -> None:
        """``size`` more bytes and ``games`` more games done (a worker's batch)."""
        self.position += size
        self.games += games
        self._maybe_draw()

    def count(self, games: int = 1) -> None:
        self.games += games
        self._maybe_draw()

    def next_input(self) -> None:
        self.done_before += self.position
        self.position = 0

    def _maybe_draw(self) -> None:
        now = time.monotonic()
        if now - self.drawn_at >= REDRAW:
            self.drawn_at = now
            self.draw(now)

    def line(self, now: float) -> str:
        seconds = max(now - self.began, 1e-9)
        done, whole = (self.read, self.total) if self.total else (self.games, self.goal)
        parts = [self.label]
        if whole:
            share = min(done / whole, 1.0)
            filled = int(share * 24)
            parts.append(f"[{'#' * filled}{'-' * (24 - filled)}] {share:4.0%}")
        if self.goal and not self.total:  # games counted towards a known number
            parts.append(f"{self.games:,}/{self.goal:,} {self.unit}s")
        else:
            parts.append(plural(self.games, self.unit))
        if self.read:
            parts.append(f"{self.read / seconds / 1e6:.1f} MB/s")
        else:
            parts.append(f"{self.games / seconds:,.1f} {self.unit}s/s")
        if whole and done and done < whole:
            left = int((whole - done) * seconds / done)
            parts.append(f"{left // 60}:{left % 60:02d} left")
        return "  ".join(parts)

    def draw(self, now: float | None = None) -> None:
        text = self.line(time.monotonic() if now is None else now)
        _write(f"\r{text}\x1b[K")
        self.visible = True

    def erase(self) -> None:
        if self.visible:
            _write("\r\x1b[K")
            self.visible = False

    def close(self) -> None:
        self.erase()
        if self in live_lines:
            live_lines.remove(self)


def _write(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):  # a terminal gone: progress is not worth an error
        pass


def input_size(paths: list[str]) -> int | None:
    """Bytes of the record files ``paths`` stands for (files, as walked); None with stdin."""
    total = 0
    for path in paths:
        if path == "-":
            return None
        try:
            total += os.stat(path).st_size
        except OSError:
            continue
    return total


def watch(ctx: Any, paths: tuple[str, ...] | list[str], wanted: bool, label: str = "reading",
          unit: str = "game") -> Progress | None:
    """A progress line for ``ctx``'s run over ``paths``, moved as its inputs are read, if
    ``wanted`` and stderr is a terminal."""
    if not wanted or not terminal(sys.stderr):
        return None
    bar = Progress(input_size(ctx.inputs.expand_quietly(tuple(paths))), label, unit)
    ctx.inputs.progress = bar
    return bar


class Tally:
    """Games, verdicts and plies of a run, and its closing summary (which ends the bar)."""

    def __init__(self, bar: Progress | None = None) -> None:
        self.games = self.valid = self.invalid = self.plies = 0
        self.began = time.perf_counter()
        self.bar = bar

    def count(self, valid: bool, plies: int) -> None:
        self.games += 1
        self.valid += valid
        self.invalid += not valid
        self.plies += plies

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def summary(self) -> None:
        """``12,000 games: 11,998 valid, 2 invalid; 704,496 plies in 18.7 s`` (stderr)."""
        self.close()
        if self.games > 1:
            seconds = time.perf_counter() - self.began
            say(f"{plural(self.games, 'game')}: {self.valid:,} valid, {self.invalid:,} invalid; "
                f"{plural(self.plies, 'ply', 'plies')} in {seconds:.1f} s", err=True)
