"""Grammar files: the single definition of every notation.

Each game's grammar lives in ``notation.grammars`` (it imports the shared
``record.lark`` container). Code that needs an event's or the container's
shape asks for the grammar's own terminal here, compiled, instead of writing
the pattern a second time as a Python regex.
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from lark import Lark

GRAMMAR_PACKAGE = "notation.grammars"


def grammar_text(name: str) -> str:
    """The text of a grammar file shipped in the package."""
    return resources.files(GRAMMAR_PACKAGE).joinpath(name).read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def grammar(name: str) -> Lark:
    """The grammar file ``name`` loaded once (LALR, no transformer): its terminals."""
    return Lark.open_from_package(GRAMMAR_PACKAGE, name, parser="lalr", lexer="contextual",
                                  maybe_placeholders=False, cache=True)


@lru_cache(maxsize=None)
def terminal_pattern(grammar_name: str, terminal: str) -> re.Pattern[str]:
    """Terminal ``terminal`` of grammar ``grammar_name`` as a compiled regex.

    Named groups written in the terminal (``(?P<piece>...)``) come with it, so
    a reader can take an event apart without spelling its shape again.
    """
    definition = grammar(grammar_name).get_terminal(terminal)
    flags = 0
    for letter in definition.pattern.flags:
        flags |= getattr(re, letter.upper())
    return re.compile(definition.pattern.to_regexp(), flags)
