"""Pictures and pages: what a position or an archive looks like to a person.

:mod:`.svg` is the drawing every game's pictures are made of (game-agnostic, written as
text by :mod:`.svg_text`); :mod:`.viewer` is the HTML page that steps through records,
and :mod:`.pages` fills the pages' templates (``templates/``) with their data. Each
game's own pictures are its ``svg.py`` and its text board its ``text.py``.
"""
