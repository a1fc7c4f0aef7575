"""The tables' compiled parts (C), built by the install where a compiler is at hand.

Each is held to its Python definition, which runs where it is missing: ``digest``
(position keys) to ``keys.py``. A package of its own that imports nothing, so that
reaching a compiled module never imports ``notation.tables`` (and its writers).
"""
