"""Every rule name an engine can report (`[rule: NAME]`), read from the code itself.

A rule name reaches a problem by one of a few roads, each read here from the source's
syntax tree, so a new rule anywhere in notation/ is found without anyone listing it:

* ``RuleError(message, "name")``: the literal;
* a ``(message, "name")`` pair returned by a function that says why a move is illegal
  (its return annotation holds ``tuple[str, str]``) and is raised as ``RuleError(*why)``;
* nomic's ``fail(109, message)`` / ``fail("112.4", ...)``: the rule number;
* ``RuleError(..., f"{key} tag")`` (a result tag that does not say what the replay reached):
  each game's result tags;
* a ``TagError(key, ...)`` (a tag the game cannot start from) becomes ``tag KEY``: the
  literal key, and where the key is a variable, every tag its game declares.
Any other non-literal rule argument is a value passed on (``exc.rule``, ``label``) whose
origin is one of the roads above.
"""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "notation"


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(
        func, ast.Attribute) else ""


def _literal(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float)):
        return str(node.value)
    return None


def _game_of(path: Path) -> str | None:
    parts = path.relative_to(PACKAGE).parts
    return parts[1] if parts[0] == "games" and len(parts) > 2 else None


def _pairs_returned(function: ast.FunctionDef) -> set[str]:
    """The second strings of the (message, rule) pairs a why-function returns."""
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Return) and node.value is not None:
            for pair in ast.walk(node.value):
                if isinstance(pair, ast.Tuple) and len(pair.elts) == 2:
                    rule = _literal(pair.elts[1])
                    if rule is not None and isinstance(pair.elts[1], ast.Constant):
                        names.add(rule)
    return names


def _result_tags() -> set[str]:
    """The result tags of every game: those its replay of a sample record sets."""
    import notation
    from notation.core import registry

    keys: set[str] = set()
    for game in registry.games():
        sample = next(p for p in sorted((ROOT / "samples" / game.name).iterdir())
                      if p.suffix in game.spec.extensions)
        outcome = notation.run(notation.load(sample)[0])
        keys |= set(game.result_tags(outcome.state))
    return keys


@cache
def rule_names() -> frozenset[str]:
    from notation.core import registry

    declared = {game.name: [t for t in game.spec.tags if t != "Game"]
                for game in registry.games()}
    names: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        game = _game_of(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.returns is not None and \
                    "tuple[str, str]" in ast.unparse(node.returns):
                names |= _pairs_returned(node)
            if not isinstance(node, ast.Call):
                continue
            called = _called(node)
            if called == "RuleError":
                rule = node.args[1] if len(node.args) > 1 else next(
                    (k.value for k in node.keywords if k.arg == "rule"), None)
                if _literal(rule) is not None:
                    names.add(str(_literal(rule)))
                elif isinstance(rule, ast.JoinedStr) and ast.unparse(rule) == "f'{key} tag'":
                    names |= {f"{key} tag" for key in _result_tags()}
            elif called == "fail" and game == "nomic" and node.args:
                if _literal(node.args[0]) is not None:
                    names.add(str(_literal(node.args[0])))
            elif called == "TagError" and node.args:
                key = _literal(node.args[0])
                if key is not None:
                    names.add(f"tag {key}")
                elif game is not None and not isinstance(node.args[0], ast.Attribute):
                    names |= {f"tag {tag}" for tag in declared[game]}
    return frozenset(names)
