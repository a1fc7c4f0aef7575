"""The built-in games. Each subpackage registers itself when imported.

They are announced here with their extensions so that reading a ``.tilewe``
file imports Tilewe alone.
"""
from notation.core.registry import Announced, register_lazy

BUILTIN = (
    Announced("notation.games.tilewe", "tilewe", (".tilewe",)),
    Announced("notation.games.flows", "flows", (".flows",)),
    Announced("notation.games.philosophy", "philosophy", (".philosophy", ".phil")),
    Announced("notation.games.sanguine", "sanguine", (".sanguine", ".sgr")),
    Announced("notation.games.nomic", "nomic", (".nomic",)),
)

register_lazy(BUILTIN)
