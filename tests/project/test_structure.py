"""The shape of the code, read from the code: one direction, games as plug-ins.

The import graph of ``notation/`` and ``cli/`` is built from their source
(every import statement, at module level or inside a function, typing-only
ones too), and checked: no circle, the core names no game, the library never
imports the command line, no import inside a library function except of a
heavy optional dependency, no private name taken from another module, and
nothing of Lark but its public API.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGES = {"notation": ROOT / "notation", "notation.cli": ROOT / "cli"}

#: Imported inside functions on purpose: optional or heavy, needed by one command only.
LAZY_ALLOWED = {"dask", "dask.bag", "logging", "dask.distributed", "distributed", "ctypes", "gc",
                "selenium", "pyarrow", "duckdb",
                # notation.distributed's tables: Dask's frames, pandas, and Arrow (the data
                # extra's) only for a user who asks for them
                "dask.dataframe", "pandas", "notation.tables.parquet",
                # start-up: what a command needs only when it meets a record it must parse
                "lark", "lark.exceptions", "hashlib", "_blake2", "importlib.metadata",
                "notation.read.record_builder", "notation.read.other_readings",
                "notation.read.parsing",
                "multiprocessing", "concurrent.futures",
                # only `notation lsp` needs the server (and pygls, an extra)
                "notation.lsp.server",
                # start-up: a check of records that name no forfeit; only a bot that
                # speaks Pentobi's dialect needs Pentobi's cells
                "notation.core.forfeit", "notation.games.tilewe.pentobi.cells",
                # start-up: a reading never writes (GameNode.save)
                "notation.save.records",
                # start-up: a run of workers that check games writes no position or record
                "notation.core.output", "notation.core.writer",
                # `notation --version` alone loads the games, to say what runs compiled
                "notation.core.registry", "notation.tables.keys",
                # start-up: what only random games need, and pictures; the tables of the
                # Python rules' search for a fit (the compiled rules search without them)
                "notation.games.tilewe.generate", "notation.games.tilewe.anchor_fits", *(f"notation.games.{game}.svg" for game in
                ("flows", "nomic", "philosophy", "sanguine", "tilewe")),
                # start-up: what a check of Sanguine records never uses (new and random
                # games, conversions, position notation, text boards)
                *(f"notation.games.sanguine.{part}" for part in
                  ("newgame", "generate", "perspective", "position", "text"))}
#: Lark's public API (the ``lark`` package and its exceptions).
LARK_PUBLIC = {"lark", "lark.exceptions"}


def modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            name = ".".join((package, *parts))
            found[name.removesuffix(".__init__")] = path
    return found


MODULES = modules()


def imports(name: str, path: Path) -> list[tuple[str, list[str], bool]]:
    """``(module, names, inside a function)`` of every import statement of a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.Import):
                found.extend((a.name, [], nested) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = package[:len(package) - child.level + 1] if child.level else []
                module = ".".join(base + ([child.module] if child.module else []))
                found.append((module, [a.name for a in child.names], nested))
            visit(child, inner)

    visit(tree, False)
    return found


def known(target: str) -> str | None:
    """The module of ours that ``target`` names (a module, or a name inside one)."""
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        for module, names, _nested in imports(name, path):
            for target in [module] + [f"{module}.{n}" for n in names]:
                found = known(target)
                if found is not None and found != name:
                    edges[name].add(found)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    for root in edges:
        if root in order:
            continue
        work = [(root, iter(sorted(edges[root])))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], order[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == order[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def test_the_graph_finds_a_circle_when_there_is_one():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.slow
def test_no_import_circle():
    assert circles(graph()) == []


@pytest.mark.slow
def test_the_core_imports_no_game_and_no_command_line():
    for name, targets in graph().items():
        if name.startswith("notation.core"):
            assert not [t for t in targets if t.startswith(("notation.games", "notation.cli"))], name


@pytest.mark.slow
def test_the_library_never_imports_the_command_line():
    for name, targets in graph().items():
        if not name.startswith(("notation.cli", "notation.__main__")):  # python -m notation
            assert not [t for t in targets if t.startswith("notation.cli")], name


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_are_at_the_top_public_and_lark_public(name):
    for module, names, nested in imports(name, MODULES[name]):
        ours = known(module) is not None or module.startswith(("notation", "cli"))
        # The command line may put off loading the library (start-up time, Ctrl-C
        # handlers first); the library itself defers only heavy optional packages.
        if nested and not (ours and name.startswith("notation.cli")):
            assert module in LAZY_ALLOWED, f"{name}: import of {module} in a function"
        if ours:
            private = [n for n in names if n.startswith("_") and n != "__version__"]
            assert not private, f"{name}: private {private} from {module}"
        if module.split(".")[0] == "lark":
            assert module in LARK_PUBLIC, f"{name}: Lark internals ({module})"


def test_every_exception_notation_raises_on_purpose_is_a_notation_error():
    """One root to catch: every exception class of the library derives from ``notation.Error``."""
    import importlib
    import inspect

    import notation
    for name in MODULES:
        if name.startswith("notation.cli") or name == "notation.__main__":
            continue  # the command line's own signals to itself (never raised to a caller)
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == name:
                assert issubclass(value, notation.Error), f"{name}.{value.__name__}"


def test_kinds_are_enums_whose_values_are_the_json_words():
    import json

    import notation
    assert [k.value for k in notation.ProblemKind] == ["syntax", "rule", "internal"]
    problem = notation.run(notation.parse('[Game "tilewe"]\n\n1. Q9n-a1a1\n')[0]).error
    assert problem.kind is notation.ProblemKind.SYNTAX
    assert json.loads(json.dumps(problem.as_json()))["kind"] == "syntax"
    (bad,) = [i for i in notation.parse('[Game "tilewe"]\n\n1. Q9n-a1a1\n')[0].items]
    assert bad.what is notation.MalformedKind.EVENT


def test_every_exception_of_the_library_is_a_notation_error():
    """``except notation.Error`` catches whatever the library raises on purpose."""
    import importlib
    import inspect

    import notation

    found = []
    for name in MODULES:
        if name.startswith("notation.cli"):
            continue  # (the command line's own are click's)
        module = importlib.import_module(name)
        found += [value for value in vars(module).values()
                  if inspect.isclass(value) and issubclass(value, BaseException)
                  and value.__module__ in (name, "notation")]
    assert len(found) > 20
    assert [cls for cls in found if not issubclass(cls, notation.Error)] == []
    assert not issubclass(notation.InvalidEventError, notation.IllegalMoveError)
    assert not issubclass(notation.IllegalMoveError, notation.InvalidEventError)


def test_tests_sit_by_subject_under_unique_names():
    """The suite mirrors the package: no test module at the top of ``tests/`` (but
    ``conftest.py``), none named after a review round, and no two with one name (the
    folders are not packages: pytest imports each module by its name)."""
    tests = ROOT / "tests"
    modules = sorted(p for p in tests.rglob("test_*.py") if "benchmarks" not in p.parts)
    assert [p.name for p in tests.glob("*.py")] == ["conftest.py"]
    names = [p.name for p in modules]
    assert len(names) == len(set(names)) and len(names) > 60
    assert [n for n in names if re.search(r"trust|review|round_?\d", n)] == []



def test_the_browser_tests_sit_where_the_makefile_runs_them():
    """``make test`` runs the browser-marked tests alone, collecting only the files named
    ``test_browser*.py``: a browser test anywhere else would run in neither phase."""
    tests = ROOT / "tests"
    marked = sorted(p.relative_to(tests).as_posix() for p in tests.rglob("test_*.py")
                    if re.search(r"mark\.browser\b", p.read_text(encoding="utf-8")))
    named = sorted(p.relative_to(tests).as_posix() for p in tests.glob("*/test_browser*.py"))
    assert marked == named and named, (marked, named)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "ALONE_TESTS := $(wildcard tests/*/test_browser*.py)" in makefile
    assert '$(PYTEST) -m "$(ALONE)" $(ALONE_TESTS)' in makefile

def test_the_public_api_names_each_concept_once():
    """One name a concept: ``format_record`` (not also ``format``), ``diff`` (its game
    found for it; ``diff_records`` is the core's), ``headers`` (not also ``tag_dict``),
    ``legal_moves`` (called with a game's options, not also ``legal``); a record is its
    tree's root, one type (no ``Record``, no ``from_record``/``to_record`` between two
    shapes, and ``GameNode.from_position``, not also ``Position.record``); every public
    name resolves."""
    import notation
    assert not {"format", "diff_records", "tree_of"} & set(notation.__all__)
    assert all(getattr(notation, name, None) is not None for name in notation.__all__)
    assert not hasattr(notation.GameNode, "tag_dict") and not hasattr(notation.Position, "legal")
    assert not {"Record", "tree_of"} & set(dir(notation))
    assert not {"from_record", "to_record", "tree_builder"} & set(dir(notation.GameNode))
    assert not hasattr(notation.Position, "record")
    assert type(notation.parse('[Game "tilewe"]\n\n1. W5n-a1a1\n')[0]) is notation.GameNode
    position = notation.new("flows")
    assert position.legal_moves(tile=3) == [m for m in position.legal_moves() if m.tile == 3]


#: The module roles every game package has (then what the game adds).
GAME_ROLES = ("__init__", "events", "notation", "rules", "state", "position", "render", "game")


def test_every_game_package_has_the_same_module_roles_and_a_game_that_only_wires():
    import ast as syntax
    games = ROOT / "notation" / "games"
    for folder in sorted(p for p in games.iterdir() if (p / "__init__.py").exists()):
        roles = {path.stem for path in folder.glob("*.py")}
        assert set(GAME_ROLES) <= roles, (folder.name, sorted(set(GAME_ROLES) - roles))
        wiring = syntax.parse((folder / "game.py").read_text(encoding="utf-8"))
        defined = [node for node in wiring.body
                   if isinstance(node, (syntax.FunctionDef, syntax.ClassDef))]
        assert not defined, f"{folder.name}/game.py defines {[d.name for d in defined]}"


def test_the_modules_of_long_tests_run_first_each_whole_and_in_order():
    """``conftest.heavy_modules_first``: what the workers of ``make test`` share at the
    end of a run are short tests."""
    import pytest
    from conftest import heavy_modules_first

    class Item:
        def __init__(self, nodeid: str, mark: str | None = None) -> None:
            self.nodeid, self.mark = nodeid, mark

        def get_closest_marker(self, name: str) -> object:
            return pytest.mark.slow if name == self.mark else None

    items = [Item("a.py::one"), Item("b.py::two"), Item("b.py::three", "slow"),
             Item("c.py::four"), Item("d.py::five", "dask"), Item("d.py::six")]
    ordered = heavy_modules_first(items)  # type: ignore[arg-type]
    assert [item.nodeid for item in ordered] == [
        "b.py::two", "b.py::three", "d.py::five", "d.py::six", "a.py::one", "c.py::four"]
