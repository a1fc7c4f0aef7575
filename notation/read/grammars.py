"""Grammar files: the single definition of every notation.

A built-in game's grammar lives in ``notation.grammars`` and imports the
shared container with ``%import .record (...)``; a third-party game ships its
grammar in its own package and writes ``%import record (...)``, which
:func:`container_loader` answers. Code that needs an event's or the
container's shape asks for the grammar's own terminal here, compiled, instead
of writing the pattern a second time as a Python regex.

The terminals come from Lark once per grammar text and are kept between runs as
plain data (the table below), so a command whose records all take the fast path
starts without importing Lark at all. Lark derives every terminal's regular
expression from the grammar files, which costs more than a small command's whole
work; the derived terminals (name, regex, flags and what the contextual lexer
orders them by) are stored as JSON in the user's cache folder
(``$XDG_CACHE_HOME/notation``, else ``~/.cache/notation``) next to the texts they
came from and the installed Lark's stamp, in a file of this install's own (its place
and Lark: :func:`install_tag`). A table is used only while both are
exactly the same, so an edited grammar or another Lark is read afresh; the
grammar files stay the definition, and a missing or unwritable cache only costs
time.
"""
from __future__ import annotations

import importlib
import json
import os
import re
import zlib
from functools import lru_cache
from importlib.machinery import PathFinder
from typing import TYPE_CHECKING, Any, NamedTuple


if TYPE_CHECKING:
    from lark import Lark

GRAMMAR_PACKAGE = "notation.grammars"

#: The options every grammar is loaded with (LALR: never Earley on a hot path).
LARK_OPTIONS: dict[str, Any] = {"parser": "lalr", "lexer": "contextual",
                                "maybe_placeholders": False}

#: ``%import .name`` (its own package's) and ``%import name`` (``record``: the container;
#: any other: Lark's own library, which the table's Lark stamp stands for).
_IMPORTS = re.compile(r"^%import\s+(\.?)(\w+)", re.MULTILINE)


def grammar_text(name: str) -> str:
    """The text of a grammar file shipped in the package."""
    return package_text(GRAMMAR_PACKAGE, name)


def package_text(package: str, name: str) -> str:
    """The text of file ``name`` of ``package``, read by the package's own loader (a folder
    or a zip alike) without ``importlib.resources``, which costs start-up time."""
    module = importlib.import_module(package)
    get_data = getattr(getattr(module.__spec__, "loader", None), "get_data", None)
    if module.__file__ and get_data is not None:
        data: bytes = get_data(os.path.join(os.path.dirname(module.__file__), name))
        return data.decode("utf-8")
    for folder in module.__path__:  # a namespace package: its folders
        path = os.path.join(folder, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                return handle.read()
    raise FileNotFoundError(f"{package} has no file {name}")


class ContainerLoader:
    """Lark's import hook for ``%import record (...)``: the container, from any package.

    An object with a ``repr`` of its own, not a function: Lark's parser cache
    keys on the options' text, and a function's text holds its address, which
    changes with every process (the cache would never be hit, and a new file
    written to the temporary folder on every run). The ``repr`` names the
    container's digest: Lark checks an imported file for changes only when it
    can open its path, which a package resource is not, so without the digest a
    changed container (a new release) would be read from a stale cache.
    """

    def __call__(self, base_path: str, grammar_path: str) -> tuple[str, str]:
        if grammar_path != "record.lark":
            raise OSError(f"no grammar {grammar_path!r} to import (only record)")
        return f"{GRAMMAR_PACKAGE}/record.lark", grammar_text("record.lark")

    def __repr__(self) -> str:
        return f"{__name__}.ContainerLoader(record.lark sha256 {container_digest()})"


@lru_cache(maxsize=None)
def container_digest() -> str:
    """The SHA-256 of ``record.lark``, the container every grammar imports."""
    import hashlib  # deliberately lazy: only Lark's own cache key needs it, not every start
    return hashlib.sha256(grammar_text("record.lark").encode("utf-8")).hexdigest()


container_loader = ContainerLoader()


def load(package: str, name: str, **options: Any) -> Lark:
    """Grammar file ``name`` of ``package`` as an LALR parser (``options``: Lark's)."""
    # Deliberately lazy: Lark is the slow path's; the fast path reads terminal tables.
    from lark import Lark
    return Lark.open_from_package(package, name, import_paths=[container_loader],
                                  **LARK_OPTIONS, **options)


@lru_cache(maxsize=None)
def grammar(name: str, package: str = GRAMMAR_PACKAGE) -> Lark:
    """The grammar file ``name`` loaded once, without a transformer: its terminals."""
    return load(package, name, cache=True)


@lru_cache(maxsize=None)
def terminals(name: str, package: str = GRAMMAR_PACKAGE) -> tuple[Terminal, ...]:
    """Every terminal of grammar ``name``, as Lark lists them, without loading Lark when
    the same grammar texts were read before (see the table below)."""
    sources = grammar_sources(name, package)
    table = cached_table(package, name, sources)
    if table is None:
        table = tuple(Terminal.of(definition) for definition in grammar(name, package).terminals)
        store_table(package, name, sources, table)
    return table


def grammar_sources(name: str, package: str = GRAMMAR_PACKAGE) -> list[str]:
    """The texts a grammar is made of: its own, then each file it imports (the container
    for ``%import record``), once each; a cached table is good while these are unchanged."""
    texts: list[str] = []
    pending = [(package, name)]
    seen: set[tuple[str, str]] = set()
    while pending:
        where = pending.pop(0)
        if where in seen:
            continue
        seen.add(where)
        text = package_text(*where)
        texts.append(text)
        for dot, imported in _IMPORTS.findall(text):
            if dot:
                pending.append((where[0], f"{imported}.lark"))
            elif imported == "record":
                pending.append((GRAMMAR_PACKAGE, "record.lark"))
    return texts


@lru_cache(maxsize=None)
def terminal_pattern(grammar_name: str, terminal: str,
                     package: str = GRAMMAR_PACKAGE) -> re.Pattern[str]:
    """Terminal ``terminal`` of grammar ``grammar_name`` as a compiled regex.

    Named groups written in the terminal (``(?P<piece>...)``) come with it, so
    a reader can take an event apart without spelling its shape again.
    """
    for definition in terminals(grammar_name, package):
        if definition.name == terminal:
            return definition.compiled()
    raise KeyError(f"grammar {grammar_name} has no terminal {terminal}")


# -- terminal tables kept between runs ------------------------------------------------

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

    def lexer_rank(self) -> tuple[int, int, int, str]:
        """Where the lexer tries this terminal: the higher priority, then the wider
        match, then the longer pattern first, then by name (a sort key)."""
        return -self.priority, -self.max_width, -self.length, self.name

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


@lru_cache(maxsize=1)
def install_tag() -> str:
    """This install told apart from every other (where its files are, and the Lark it
    uses), as eight hex digits: two installs or checkouts used in turn keep a table each
    instead of writing over each other's at every start. (Another version in the same
    place reads its own grammar texts, which a table is checked against.)"""
    key = f"{__file__}\0{lark_stamp()}"
    return f"{zlib.crc32(key.encode('utf-8', 'surrogateescape')):08x}"


def table_path(package: str, name: str) -> str:
    return os.path.join(cache_folder(), re.sub(
        r"[^\w.-]", "_", f"terminals-{package}-{name}-{install_tag()}") + ".json")


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
