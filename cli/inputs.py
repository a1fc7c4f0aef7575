"""Turning command-line PATH arguments into parsed record files.

Files are read as given; directories are walked (sorted, like ``ls``) for
known record extensions. What cannot be read is noted as an input error
(exit 2) and the other paths are still read; what is skipped on purpose
(a FIFO found in a folder, a file with no games) gets a warning.
"""
from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass, field
from typing import Iterator

from notation.core import registry
from notation.core.ast import RecordFile
from notation.core.errors import InputError
from notation.core.limits import shorten
from notation.core.parsing import decode, load, normalise_newlines, parse

STDIN = "<stdin>"


@dataclass
class Inputs:
    """What a command read, and the input errors and warnings it met on the way."""

    encoding: str = "utf-8"
    game: str | None = None
    input_errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    texts: dict[str, list[str]] = field(default_factory=dict)  # for caret excerpts

    def walk(self, paths: tuple[str, ...], extensions: tuple[str, ...]) -> Iterator[str]:
        """Files as given; directories walked for ``extensions``, sorted.

        A folder that cannot be listed is an input error; a non-regular file
        met in a walk (a FIFO would block) is skipped with a warning.
        """
        for path in paths:
            if path == "-" or not os.path.isdir(path):
                yield path
                continue
            found = False

            def unreadable(exc: OSError) -> None:
                self.input_errors.append(f"{exc.filename}: error: cannot read folder: "
                                         f"{exc.strerror or exc}")

            for root, dirs, files in os.walk(path, onerror=unreadable):
                dirs.sort()
                for name in sorted(files):
                    if not name.lower().endswith(extensions):
                        continue
                    full = os.path.join(root, name)
                    try:
                        mode = os.stat(full).st_mode
                    except OSError as exc:
                        self.input_errors.append(f"{full}: error: cannot read: "
                                                 f"{exc.strerror or exc}")
                        continue
                    if not stat.S_ISREG(mode):
                        self.warnings.append(f"{full}: warning: not a regular file; skipped")
                        continue
                    found = True
                    yield full
            if not found and not any(e.startswith(path) for e in self.input_errors):
                self.input_errors.append(f"{path}: error: no record files here "
                                         f"(known extensions: {' '.join(extensions)})")

    def expand(self, paths: tuple[str, ...]) -> Iterator[str]:
        return self.walk(paths, registry.extensions())

    def read(self, paths: tuple[str, ...]) -> Iterator[RecordFile]:
        """Parse every file; unreadable ones are noted and skipped, empty ones warned of."""
        for path in self.expand(paths):
            try:
                if path == "-":
                    text = normalise_newlines(decode(_stdin_bytes(), STDIN, self.encoding))
                    records = parse(text, game=self.game, source=STDIN)
                    self.texts[STDIN] = text.split("\n")
                else:
                    records = load(path, game=self.game, encoding=self.encoding)
            except InputError as exc:
                self.input_errors.append(str(exc))
                continue
            except RecursionError:
                self.input_errors.append(f"{path}: error: nested too deeply to read")
                continue
            except Exception as exc:  # a bug of ours: this file's problem, not the run's
                self.input_errors.append(f"{path}: internal error: {exc.__class__.__name__}: "
                                         f"{shorten(str(exc))}")
                continue
            if not len(records):
                self.warnings.append(f"{records.source}: warning: no games")
            yield records

    def source_lines(self, source: str) -> list[str]:
        """The lines of an input, for caret excerpts ([] if it cannot be read again)."""
        if source not in self.texts:
            try:
                from notation.core.parsing import read_file
                self.texts[source] = read_file(source, self.encoding).split("\n")
            except (InputError, OSError):
                self.texts[source] = []
        return self.texts[source]


def _stdin_bytes() -> bytes:
    if sys.stdin is None:
        raise InputError(STDIN, "standard input is closed")
    try:
        return sys.stdin.buffer.read()
    except OSError as exc:
        raise InputError(STDIN, f"cannot read: {exc.strerror or exc}") from None
