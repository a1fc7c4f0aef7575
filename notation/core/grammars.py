"""Grammar files: the single definition of every notation.

A built-in game's grammar lives in ``notation.grammars`` and imports the
shared container with ``%import .record (...)``; a third-party game ships its
grammar in its own package and writes ``%import record (...)``, which
:func:`container_loader` answers. Code that needs an event's or the
container's shape asks for the grammar's own terminal here, compiled, instead
of writing the pattern a second time as a Python regex.
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from importlib import resources
from typing import Any

from lark import Lark

GRAMMAR_PACKAGE = "notation.grammars"

#: The options every grammar is loaded with (LALR: never Earley on a hot path).
LARK_OPTIONS: dict[str, Any] = {"parser": "lalr", "lexer": "contextual",
                                "maybe_placeholders": False}


def grammar_text(name: str) -> str:
    """The text of a grammar file shipped in the package."""
    return resources.files(GRAMMAR_PACKAGE).joinpath(name).read_text(encoding="utf-8")


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
    return hashlib.sha256(grammar_text("record.lark").encode("utf-8")).hexdigest()


container_loader = ContainerLoader()


def load(package: str, name: str, **options: Any) -> Lark:
    """Grammar file ``name`` of ``package`` as an LALR parser (``options``: Lark's)."""
    return Lark.open_from_package(package, name, import_paths=[container_loader],
                                  **LARK_OPTIONS, **options)


@lru_cache(maxsize=None)
def grammar(name: str, package: str = GRAMMAR_PACKAGE) -> Lark:
    """The grammar file ``name`` loaded once, without a transformer: its terminals."""
    return load(package, name, cache=True)


@lru_cache(maxsize=None)
def terminal_pattern(grammar_name: str, terminal: str,
                     package: str = GRAMMAR_PACKAGE) -> re.Pattern[str]:
    """Terminal ``terminal`` of grammar ``grammar_name`` as a compiled regex.

    Named groups written in the terminal (``(?P<piece>...)``) come with it, so
    a reader can take an event apart without spelling its shape again.
    """
    definition = grammar(grammar_name, package).get_terminal(terminal)
    flags = 0
    for letter in definition.pattern.flags:
        flags |= getattr(re, letter.upper())
    return re.compile(definition.pattern.to_regexp(), flags)
