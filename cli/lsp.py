"""``lsp``: the language server, for editors (the logic is :mod:`notation.lsp`)."""
from __future__ import annotations

import click


@click.command()
@click.option("--tcp", "port", type=click.IntRange(1, 65535), metavar="PORT",
              help="Listen on 127.0.0.1:PORT instead of speaking over stdin and stdout.")
@click.option("--catalogue", metavar="URL",
              help="The address of the handbook's rule catalogue page: each error's rule "
                   "links into it. Default: build/docs/catalogue.html of the checkout, "
                   "once make docs has built it; else no links.")
def lsp(port: int | None, catalogue: str | None) -> None:
    """Every record an editor opens is checked as it is typed: each problem validate finds
    (syntax and rules, in variations too, every game of an archive) at its line and
    column, its rule as the diagnostic's code. An edit re-reads only the games it
    touches. Also: hover, completion, formatting, outline, folds, colours
    (semantic tokens), fixes (code actions), and go to definition on a deck path.
    Needs game-notation[lsp] (pygls)."""
    try:
        from notation.lsp.server import serve
    except ImportError as exc:
        raise click.UsageError(f"the language server needs pygls: pip install "
                               f"'game-notation[lsp]' ({exc})") from None
    serve(port, catalogue)
