"""Flows' compiled part (C), built by the install where a compiler is at hand.

``routes`` (the search for a route still open, ``routes.open_route``) is held to its
Python definition, ``routes.open_route_python``, which runs where it is missing. A
package of its own that imports nothing, so that reaching the compiled module never
imports the game's package.
"""
