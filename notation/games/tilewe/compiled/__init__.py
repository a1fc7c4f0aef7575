"""Tilewe's compiled parts (C), built by the install where a compiler is at hand.

Each is held to its Python definition, which runs where it is missing: ``text`` (a
position's TPN) to ``state.py``, ``rules`` (a game's moves played in one call) to
``rules.replay_words_python``. A package of its own that imports nothing, so that
reaching a compiled module never imports the game's package.
"""
