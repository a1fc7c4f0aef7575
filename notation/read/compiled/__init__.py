"""The reader's compiled parts (optional: each has its definition in Python beside it)."""
