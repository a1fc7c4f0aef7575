"""Record files under folders: what ``read_games("games/")`` and every command read.

Paths that are not folders are given as they are; a folder is walked (sorted, as ``ls``
lists, subfolders after their parent's files in name order) for the known extensions,
each also under a compression ending (``x.tilewe.gz``). What goes wrong on the way is
told to the caller's :class:`FolderErrors`: by default a folder that cannot be listed or
that holds no record file raises :class:`~notation.core.errors.InputError`, and a file
that is not a regular one (a FIFO would block its reader) is left out.
"""
from __future__ import annotations

import os
import stat
from typing import Iterable, Iterator

from .compression import plain_name
from .errors import InputError


class FolderErrors:
    """What a walk met that it could not read; a command line notes each and goes on,
    a library call raises at the first."""

    def unreadable(self, path: str, reason: str, folder: bool) -> None:
        """A folder (``folder``) or a file in one that cannot be read."""
        what = "folder" if folder else "file"
        raise InputError(path, f"cannot read {what}: {reason}")

    def not_regular(self, path: str) -> None:
        """A FIFO, device or socket met in a walk: never opened."""

    def empty(self, folder: str, extensions: tuple[str, ...]) -> None:
        """A folder with no record file in it, however deep."""
        raise InputError(folder, f"no record files here (known extensions: "
                                 f"{' '.join(extensions)})")


def record_files(paths: Iterable[str | os.PathLike[str]], extensions: tuple[str, ...],
                 errors: FolderErrors | None = None) -> Iterator[str]:
    """Each path that is no folder, as given (``-`` too); each folder's record files."""
    errors = FolderErrors() if errors is None else errors
    for given in paths:
        path = os.fspath(given)
        if path == "-" or not os.path.isdir(path):
            yield path
            continue
        yield from _walked(path, extensions, errors)


def _walked(folder: str, extensions: tuple[str, ...], errors: FolderErrors) -> Iterator[str]:
    found = broken = False

    def unlistable(exc: OSError) -> None:
        nonlocal broken
        broken = True
        errors.unreadable(str(exc.filename), exc.strerror or str(exc), True)

    for root, dirs, files in os.walk(folder, onerror=unlistable):
        dirs.sort()
        for name in sorted(files):
            if not plain_name(name).lower().endswith(extensions):
                continue
            full = os.path.join(root, name)
            try:
                mode = os.stat(full).st_mode
            except OSError as exc:
                broken = True
                errors.unreadable(full, exc.strerror or str(exc), False)
                continue
            if not stat.S_ISREG(mode):
                errors.not_regular(full)
                continue
            found = True
            yield full
    if not found and not broken:
        errors.empty(folder, extensions)
