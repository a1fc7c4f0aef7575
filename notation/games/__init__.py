"""The built-in games. Each subpackage is a plug-in announced by an entry point
(``notation.games`` in pyproject.toml), exactly as a third-party game would be."""
