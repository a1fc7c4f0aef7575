"""Sanguine (PawnsBoard): decks, cards, influence, row scoring."""
from notation.core.registry import register

from .deck import Card, Deck, DeckError, load_deck, parse_deck
from .engine import SanguineState
from .events import Deal, Draw, Pass, Place, Result
from .game import Sanguine

GAME = register(Sanguine())

__all__ = ["Card", "Deal", "Deck", "DeckError", "Draw", "GAME", "Pass", "Place", "Result",
           "Sanguine", "SanguineState", "load_deck", "parse_deck"]
