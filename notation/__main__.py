"""``python -m notation``: the same as the ``notation`` command."""
from notation.cli.entry import main

if __name__ == "__main__":
    main()
