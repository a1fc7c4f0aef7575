"""Turning command-line PATH arguments into parsed record files.

Files are read as given; directories are walked (sorted, like ``ls``) for
known record extensions. What cannot be read is noted as an input error
(exit 2) and the other paths are still read; what is skipped on purpose
(a FIFO found in a folder, a file with no games) gets a warning.
"""
from __future__ import annotations

import sys
from dataclasses import field
from typing import Any, Iterator

from notation.core.tree import GameNode
from notation.core import formats, registry

from notation.core.errors import InputError
from notation.core.hand_dataclass import hand_dataclass
from notation.read.reading import FolderErrors, record_files

STDIN = "<stdin>"


class _Noted(FolderErrors):
    """A walk's troubles noted on the command's inputs, the walk going on."""

    def __init__(self, inputs: Inputs) -> None:
        self.inputs = inputs

    def unreadable(self, path: str, reason: str, folder: bool) -> None:
        what = "cannot read folder" if folder else "cannot read"
        self.inputs.input_errors.append(f"{path}: error: {what}: {reason}")

    def not_regular(self, path: str) -> None:
        self.inputs.warnings.append(f"{path}: warning: not a regular file; skipped")

    def empty(self, folder: str, extensions: tuple[str, ...]) -> None:
        self.inputs.input_errors.append(f"{folder}: error: no record files here "
                                        f"(known extensions: {' '.join(extensions)})")


@hand_dataclass()
class Inputs:
    """What a command read, and the input errors and warnings it met on the way."""

    encoding: str = "utf-8"
    game: str | None = None
    #: Tags every record read gets where it lacks them (``--dialect``).
    tags: dict[str, str] = field(default_factory=dict)
    input_errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: The run's progress line (:class:`notation.cli.progress.Progress`), moved as
    #: records are read; None when none is shown.
    progress: Any = None

    def __init__(self, encoding: str = "utf-8", game: str | None = None,
                 tags: dict[str, str] | None = None, input_errors: list[str] | None = None,
                 warnings: list[str] | None = None, progress: Any = None) -> None:
        self.encoding = encoding
        self.game = game
        self.tags = {} if tags is None else tags
        self.input_errors = [] if input_errors is None else input_errors
        self.warnings = [] if warnings is None else warnings
        self.progress = progress

    def walk(self, paths: tuple[str, ...], extensions: tuple[str, ...]) -> Iterator[str]:
        """Files as given; directories walked for ``extensions`` (the library's walk),
        what cannot be read noted as an input error, a FIFO or device skipped with a
        warning."""
        return record_files(paths, extensions, _Noted(self))

    def expand(self, paths: tuple[str, ...]) -> Iterator[str]:
        return record_files(paths, None, _Noted(self))

    def expand_quietly(self, paths: tuple[str, ...]) -> list[str]:
        """The files the paths stand for, without noting any error (sizes, planning)."""
        errors, warnings = list(self.input_errors), list(self.warnings)
        try:
            return list(self.expand(paths))
        finally:
            self.input_errors[:], self.warnings[:] = errors, warnings

    def read(self, paths: tuple[str, ...], checked: bool = False,
             headers: bool = False) -> Iterator["FileRecords"]:
        """Every input as a stream of records, read game by game as it is iterated.

        ``checked``: valid games may come already replayed, without their
        events (the reader's fast path), for commands that want verdicts.
        """
        for path in self.expand(paths):
            yield FileRecords(self, path, checked, headers)


class FileRecords:
    """The records of one input, read as they are iterated (flat memory).

    An input that cannot be read (or stops being readable) becomes an input
    error of the run; one with no games, a warning.
    """

    def __init__(self, inputs: Inputs, path: str, checked: bool = False,
                 headers: bool = False) -> None:
        self.inputs = inputs
        self.path = path
        self.checked = checked
        self.headers = headers
        self.source = STDIN if path == "-" else path
        self.count = 0
        self.failed = False
        self.handle: Any = None

    def games(self) -> Iterator[GameNode]:
        """The input's records as read (a subclass may read them another way: ``select``
        passes over games that cannot match); iterating the object adds the bookkeeping."""
        from notation.read.reading import source_records  # loads Lark
        from notation.read.text import open_record_file
        inputs = self.inputs
        if self.path == "-":
            if sys.stdin is None:
                raise InputError(STDIN, "standard input is closed")
            yield from source_records(sys.stdin.buffer, inputs.game, inputs.encoding, STDIN,
                                      self.checked, self.headers, inputs.tags)
            return
        with open_record_file(self.path) as handle:
            self.handle = handle
            yield from source_records(handle, inputs.game, inputs.encoding, self.path,
                                      self.checked, self.headers, inputs.tags)

    def position(self) -> int:
        """Bytes of this input read so far (for progress)."""
        try:
            return self.handle.tell() if self.handle is not None else 0
        except (OSError, ValueError):
            return 0

    def __iter__(self) -> Iterator[GameNode]:
        progress = self.inputs.progress
        try:
            for record in self.games():
                self.count += 1
                if progress is not None:
                    progress.at(self.position())
                    progress.count()
                yield record
        except InputError as exc:
            self.failed = True
            self.inputs.input_errors.append(str(exc))
            return
        except RecursionError:
            self.failed = True
            self.inputs.input_errors.append(f"{self.source}: error: nested too deeply to read")
            return
        except OSError as exc:
            self.failed = True
            self.inputs.input_errors.append(f"{self.source}: error: cannot read: "
                                            f"{exc.strerror or exc}")
            return
        finally:
            if progress is not None:
                progress.next_input()
        if not self.count:
            self.inputs.warnings.append(f"{self.source}: warning: no games")
