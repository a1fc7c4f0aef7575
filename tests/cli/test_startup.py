"""Start-up stays small: what a command does not use is never imported (no clock here).

The CPU figures are ``tests/benchmarks/bench_startup.py``'s; these tests hold
the causes, so the gain cannot rot silently: the command line, ``--help`` and
the reading modules import neither Lark nor ``importlib.metadata`` nor any
data library; the entry points read without that library are the ones it
reads; the cached terminal tables are Lark's terminals, and a stale, broken or
unwritable cache only costs time.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import HANG_BREAKER, ROOT, TILEWE, write
from notation.core import plugins
from notation.read import grammars
from notation.read.grammars import Terminal

#: Top-level packages no start-up needs (and ``importlib.metadata``, checked apart).
HEAVY = ("lark", "pyarrow", "duckdb", "zstandard", "dask")
GRAMMARS = sorted(p.name for p in (ROOT / "grammars").glob("*.lark"))


def imported_by(code: str, env: dict[str, str] | None = None) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    probe = (f"{code}\nimport sys\n"
             "print(' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, timeout=HANG_BREAKER, env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr[-2000:]
    return set(done.stdout.split())


def heavy(modules: set[str]) -> set[str]:
    return {name for name in modules
            if name.split(".")[0] in HEAVY or name.startswith("importlib.metadata")}


def test_the_command_line_module_imports_nothing_heavy():
    assert heavy(imported_by("import notation.cli.main")) == set()


def test_help_loads_no_command_no_registry_and_no_record_model():
    loaded = imported_by("import sys\nsys.argv = ['notation', '--help']\n"
                         "from notation.cli.entry import main\n"
                         "try:\n    main()\nexcept SystemExit:\n    pass")
    assert heavy(loaded) == set()
    assert {name for name in loaded if name.startswith("notation.core")} == set()


def test_reading_a_valid_file_loads_no_lark_once_the_tables_are_cached(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    code = ("from notation.read import grammars\n"
            "for name in ('container.lark', 'tilewe.lark'):\n"
            "    grammars.terminals(name)\n"
            "import notation.read.parsing, notation.read.text")
    assert "lark" in imported_by(code, env)          # the first run derives the tables
    assert heavy(imported_by(code, env)) == set()   # the next reads them


# -- entry points ------------------------------------------------------------------

def _library(group: str) -> list[tuple[str, str, str]]:
    return [(p.name, p.value, p.group) for p in metadata.entry_points(group=group)]


def _ours(group: str) -> list[tuple[str, str, str]]:
    return [tuple(p) for p in plugins.entry_points(group)]


@pytest.mark.parametrize("group", ["notation.games", "notation.formats", "console_scripts",
                                   "pytest11", "no.such.group"])
def test_entry_points_are_importlib_metadatas(group):
    assert _ours(group) == _library(group)


def _dist(folder: Path, stem: str, text: str | None) -> None:
    info = folder / stem
    info.mkdir(parents=True)
    if text is not None:
        (info / "entry_points.txt").write_text(text, encoding="utf-8")


def test_entry_points_of_crafted_folders_first_distribution_wins(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    _dist(first, "Demo_Pkg-1.0.dist-info", "# a comment\n[notation.games]\n"
                                           "demo = demo.game:PLUGIN [extra]\n\n[other]\nx = y\n")
    _dist(second, "demo.pkg-2.0.dist-info", "[notation.games]\ndemo2 = demo2:PLUGIN\n")
    _dist(second, "other-1.0.egg-info", "[notation.games]\n  spaced  =  a.b : c.d  \n")
    _dist(second, "plain-1.0.dist-info", None)
    (second / "broken.egg-info").write_text("Metadata-Version: 1.0\n")  # a file, not a folder
    monkeypatch.setattr(sys, "path", [str(first), str(tmp_path / "missing"), str(second)])
    assert _ours("notation.games") == _library("notation.games")
    assert [p.name for p in plugins.entry_points("notation.games")] == ["demo", "spaced"]


def test_what_only_the_library_reads_is_asked_of_it(tmp_path, monkeypatch):
    archive = tmp_path / "site.zip"
    archive.write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip archive
    monkeypatch.setattr(sys, "path", [str(archive)] + sys.path)
    with pytest.raises(plugins.NotPlain):
        plugins._scanned("notation.games")
    assert _ours("notation.games") == _library("notation.games")


def test_an_entry_point_loads_the_object_it_names():
    point = plugins.EntryPoint("tilewe", "notation.games.tilewe:SPEC", "notation.games")
    assert point.load() is metadata.entry_points(group="notation.games")["tilewe"].load()


_names = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,3}([-_.][A-Za-z0-9]{1,3})?", fullmatch=True)


@pytest.mark.slow
@settings(max_examples=40)
@given(st.lists(st.tuples(st.integers(0, 2), _names, st.lists(_names, max_size=3)),
                max_size=6))
def test_entry_points_match_the_library_on_any_layout(tmp_path_factory, layout):
    base = tmp_path_factory.mktemp("site")
    folders = [base / str(i) for i in range(3)]
    for index, (where, name, points) in enumerate(layout):
        body = "[notation.games]\n" + "".join(f"{p} = m{index}:{p}\n" for p in points)
        try:
            _dist(folders[where], f"{name}-{index}.0.dist-info", body)
        except FileExistsError:
            continue
    saved = sys.path[:]
    sys.path[:] = [str(folder) for folder in folders]
    try:
        assert _ours("notation.games") == _library("notation.games")
    finally:
        sys.path[:] = saved


# -- terminal tables ---------------------------------------------------------------

@pytest.mark.parametrize("name", GRAMMARS)
def test_a_cached_table_is_larks_own_terminals(name, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    lark = tuple(Terminal.of(t) for t in grammars.grammar(name).terminals)
    sources = grammars.grammar_sources(name)
    assert grammars.cached_table(grammars.GRAMMAR_PACKAGE, name, sources) is None
    grammars.store_table(grammars.GRAMMAR_PACKAGE, name, sources, lark)
    assert grammars.cached_table(grammars.GRAMMAR_PACKAGE, name, sources) == lark
    for terminal in lark:  # and each compiles as Lark's own pattern does
        assert terminal.compiled().pattern == grammars.grammar(name).get_terminal(
            terminal.name).pattern.to_regexp()


def test_a_table_is_read_only_for_the_same_grammar_texts(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    name = "tilewe.lark"
    sources = grammars.grammar_sources(name)
    assert sources[1] == grammars.grammar_text("record.lark")  # the container is a source
    table = tuple(Terminal.of(t) for t in grammars.grammar(name).terminals)
    grammars.store_table(grammars.GRAMMAR_PACKAGE, name, sources, table)
    edited = [sources[0], sources[1].replace("LINE_COMMENT", "LINE_REMARK")]
    assert grammars.cached_table(grammars.GRAMMAR_PACKAGE, name, edited) is None
    path = Path(grammars.table_path(grammars.GRAMMAR_PACKAGE, name))
    stored = json.loads(path.read_text())
    path.write_text(json.dumps({**stored, "lark": "another lark"}))
    assert grammars.cached_table(grammars.GRAMMAR_PACKAGE, name, sources) is None
    path.write_text('{"layout": 1, "lark": ')  # half a file: built again, never an error
    assert grammars.cached_table(grammars.GRAMMAR_PACKAGE, name, sources) is None


def test_an_unwritable_cache_only_costs_time(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a file: no folder can be made in it
    grammars.terminals.cache_clear()
    try:
        assert grammars.terminals("container.lark") == tuple(
            Terminal.of(t) for t in grammars.grammar("container.lark").terminals)
    finally:
        grammars.terminals.cache_clear()
    assert list(tmp_path.iterdir()) == [blocker]


# -- what a run loads ----------------------------------------------------------------------

def test_cli_start_loads_only_the_game_it_reads(tmp_path):
    path = write(tmp_path, "x.tilewe", TILEWE)
    code = ("import sys; from notation.cli.main import run\n"
            "try:\n    run(['validate', sys.argv[1]])\nexcept SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('notation.games.') "
            "and m.endswith('.game')))")
    result = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                            text=True, timeout=HANG_BREAKER)
    assert result.stdout.strip().endswith("['notation.games.tilewe.game']"), result.stdout


# -- what a check loads --------------------------------------------------------------

#: The most of the package's modules ``notation validate`` of one Sanguine record may
#: load: the command line's, the reader's, the replay's and the one game's own (the
#: other games announce themselves from their packages only). The parts a check never
#: asks for (pictures, conversions, new and random games) load when first asked for.
#: (47: the compiled tag reader, a package and its module, came with the fast path's; 48:
#: the dataclasses made without compiling, ``notation.core.hand_dataclass``.)
VALIDATE_MODULES = 48


@pytest.mark.parametrize("sample", ["example-1.sanguine", "example-2.sanguine",
                                    "random-5x7.sanguine"])
def test_validating_one_record_loads_few_of_the_package_s_modules(sample):
    path = ROOT / "samples" / "sanguine" / sample
    loaded = imported_by("import sys\n"
                         f"sys.argv = ['notation', 'validate', {str(path)!r}]\n"
                         "from notation.cli.entry import main\n"
                         "try:\n    main()\nexcept SystemExit as end:\n"
                         "    assert end.code == 0, end.code")
    ours = sorted(name for name in loaded if name.split(".")[0] == "notation")
    assert len(ours) <= VALIDATE_MODULES, ours
    assert not [name for name in ours if name.startswith("notation.parallel.runs")], ours
    others = [name for name in ours if name.startswith("notation.games.")
              and not name.startswith("notation.games.sanguine")]
    # No other game's spec is read to find this one (the file's ending names it), only the
    # package that announces a record format a file's first line may claim (Pentobi's).
    assert others == ["notation.games.tilewe"], others


def test_two_installs_used_in_turn_keep_a_table_each(tmp_path, monkeypatch):
    """The table's file names the install (its place, version and Lark): another install
    or checkout run in between writes its own, and neither is read again from Lark."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    name = "tilewe.lark"
    sources = grammars.grammar_sources(name)
    table = tuple(Terminal.of(t) for t in grammars.grammar(name).terminals)
    ours = grammars.table_path(grammars.GRAMMAR_PACKAGE, name)
    grammars.store_table(grammars.GRAMMAR_PACKAGE, name, sources, table)
    monkeypatch.setattr(grammars, "install_tag", lambda: "0another")
    theirs = grammars.table_path(grammars.GRAMMAR_PACKAGE, name)
    assert theirs != ours
    assert grammars.cached_table(grammars.GRAMMAR_PACKAGE, name, sources) is None
    grammars.store_table(grammars.GRAMMAR_PACKAGE, name, sources, table)
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert grammars.cached_table(grammars.GRAMMAR_PACKAGE, name, sources) == table
    assert sorted(p.name for p in (tmp_path / "notation").iterdir()) == sorted(
        [Path(ours).name, Path(theirs).name])
    grammars.install_tag.cache_clear()  # a checkout elsewhere: another tag
    monkeypatch.setattr(grammars, "__file__", "/elsewhere/notation/read/grammars.py")
    assert grammars.install_tag() != Path(ours).stem.rsplit("-", 1)[-1]
    grammars.install_tag.cache_clear()
