"""The built-in games. Each subpackage registers itself when imported."""
from notation.core.registry import register_lazy

BUILTIN = ("notation.games.tilewe", "notation.games.flows", "notation.games.philosophy",
           "notation.games.sanguine", "notation.games.nomic")

register_lazy(BUILTIN)
