"""The sample records and Sanguine decks, installed with the package (``notation.samples``).

``notation random sanguine`` plays the bundled decks by name (``--red legion``).
"""
