"""The game registry reads a game's spec when a lookup needs it, and no other's."""
from __future__ import annotations

import pytest

from notation.core import plugins, registry
from notation.core.plugins import GROUP, EntryPoint, GameSpec

SPECS = {f"demo:{name}": GameSpec(name, name.title(), extensions, "g.lark", f"demo_{name}:GAME", {})
         for name, extensions in [("alpha", (".alpha",)), ("beta", (".beta", ".b2")),
                                  ("gamma", (".gamma",))]}


@pytest.fixture()
def read(monkeypatch):
    """A registry of three announced games, each spec's reading noted (none loads code)."""
    noted: list[str] = []
    points = [EntryPoint("alpha", "demo:alpha", GROUP), EntryPoint("beta", "demo:beta", GROUP),
              EntryPoint("other-name", "demo:gamma", GROUP)]  # named unlike its game

    def load(point: EntryPoint) -> object:
        noted.append(point.value.partition(":")[2])
        return SPECS[point.value]

    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    monkeypatch.setattr(plugins.EntryPoint, "load", load)
    for name, value in [("_GAMES", {}), ("_PENDING", {}), ("_UNREAD", {}),
                        ("_DISCOVERED", False)]:
        monkeypatch.setattr(registry, name, value)
    monkeypatch.setattr(registry, "_load", lambda name: registry._read(name))  # specs only
    return noted


def test_a_file_named_after_its_game_reads_that_spec_alone(read):
    registry.by_extension("x.alpha.gz")
    assert read == ["alpha"]


def test_an_ending_no_game_is_named_after_reads_them_all(read):
    registry.by_extension("x.b2")
    assert sorted(read) == ["alpha", "beta", "gamma"]
    assert sorted(registry._PENDING) == ["alpha", "beta", "gamma"]


def test_a_game_named_unlike_its_entry_point_is_still_found_by_name(read):
    registry.get("beta")
    assert read == ["beta"]
    registry.get("gamma")
    assert sorted(read) == ["alpha", "beta", "gamma"] and "gamma" in registry._PENDING


def test_the_names_are_the_games_names(read):
    assert registry.names() == ["alpha", "beta", "gamma"]
