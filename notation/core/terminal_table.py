"""A grammar's terminals as plain data, kept between runs so that start-up skips Lark.

Lark derives every terminal's regular expression from the grammar files; that
needs Lark imported and the grammar loaded, which costs more than a small
command's whole work. The derived terminals (name, regex, flags and what the
contextual lexer orders them by) are stored as JSON in the user's cache folder
(``$XDG_CACHE_HOME/notation``, else ``~/.cache/notation``) next to the texts
they came from and the installed Lark's stamp; a table is used only while
both are exactly the same, so an edited grammar or another Lark is read
afresh. Nothing here is the definition of a notation: the grammar files stay
that, and a missing or unwritable cache only costs time.
"""
from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from importlib.machinery import PathFinder
from typing import Any, NamedTuple

#: The table's layout; a table of another layout is built again.
LAYOUT = 1


class Terminal(NamedTuple):
    """One terminal of a grammar, as Lark derives it."""

    name: str
    #: The terminal's regular expression (Lark's ``pattern.to_regexp()``).
    regexp: str
    #: Regex flag letters (``"i"``, ``"m"``...), as Lark writes them.
    flags: str
    priority: int
    #: The longest text the terminal matches (Lark's ``pattern.max_width``).
    max_width: int
    #: The length of the pattern as written (the lexer's last tie-break but the name).
    length: int

    @classmethod
    def of(cls, definition: Any) -> Terminal:
        """The terminal of a Lark ``TerminalDef``."""
        pattern = definition.pattern
        return cls(definition.name, pattern.to_regexp(), "".join(pattern.flags),
                   definition.priority, pattern.max_width, len(pattern.value))

    def compiled(self) -> re.Pattern[str]:
        flags = 0
        for letter in self.flags:
            flags |= getattr(re, letter.upper())
        return re.compile(self.regexp, flags)


def cache_folder() -> str:
    """Where the tables are kept."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "notation")


@lru_cache(maxsize=1)
def lark_stamp() -> str | None:
    """The installed Lark, told apart from any other install or version without importing
    it: its ``__init__`` file's path, size and time of change."""
    spec = PathFinder.find_spec("lark")
    if spec is None or not spec.origin:
        return None
    try:
        status = os.stat(spec.origin)
    except OSError:
        return None
    return f"{spec.origin} {status.st_size} {status.st_mtime_ns}"


def table_path(package: str, name: str) -> str:
    return os.path.join(cache_folder(), re.sub(r"[^\w.-]", "_", f"terminals-{package}-{name}")
                        + ".json")


def cached_table(package: str, name: str, sources: list[str]) -> tuple[Terminal, ...] | None:
    """The stored terminals of grammar ``name`` of ``package``, if they were derived from
    exactly ``sources`` by the Lark installed now; else None."""
    stamp = lark_stamp()
    if stamp is None:
        return None
    try:
        with open(table_path(package, name), encoding="utf-8") as handle:
            stored = json.load(handle)
        if (stored["layout"], stored["lark"], stored["sources"]) != (LAYOUT, stamp, sources):
            return None
        return tuple(Terminal(*row) for row in stored["terminals"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store_table(package: str, name: str, sources: list[str],
                table: tuple[Terminal, ...]) -> None:
    """Keep ``table`` for the next run (at best: a cache that cannot be written is skipped).
    Written aside and renamed, so a reader never sees half a table."""
    stamp = lark_stamp()
    if stamp is None:
        return
    path = table_path(package, name)
    partial = f"{path}.{os.getpid()}.partial"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(partial, "w", encoding="utf-8") as handle:
            json.dump({"layout": LAYOUT, "lark": stamp, "sources": sources,
                       "terminals": [list(terminal) for terminal in table]}, handle)
        os.replace(partial, path)
    except OSError:
        try:
            os.unlink(partial)
        except OSError:
            pass
