"""SVG written as strings: the same pictures, byte for byte, as ElementTree wrote them.

``render/svg.py`` once built an ElementTree per picture and serialised it; it now writes
the text itself. Two checks hold it to the old output:

- every position of every sample (start and each ply, every view a game has) against
  known answers: a digest of its SVG and of its viewer parts, stored in
  ``tests/data/svg/known-pictures.json`` when ElementTree still drew them;
- any text a record can bring, escaped as ElementTree escapes it (the library is the
  oracle, built here from the same inputs).

``PYTHONPATH=tests python tests/render/test_svg_strings.py`` rewrites the known answers;
only for a picture changed on purpose (with ``make pictures`` for the README's).
"""
from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from typing import Any, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import notation
from notation.render.svg import Drawing
from notation.render.svg_text import number, shape, xml_text

from conftest import DATA, SAMPLES

KNOWN = DATA / "svg" / "known-pictures.json"
PICTURED = ("tilewe", "flows", "philosophy", "sanguine", "nomic")
#: The views drawn of every position, by game (``{}``: the default one).
VIEWS: dict[str, list[dict[str, str]]] = {
    "flows": [{}] + [{"perspective": f"side:{k}"} for k in range(6)],
    "sanguine": [{}, {"perspective": "blue"}],
}


def sample_files() -> list[str]:
    return sorted(str(p.relative_to(SAMPLES)) for p in SAMPLES.rglob("*")
                  if p.is_file() and p.suffix[1:] in PICTURED)


def digest(drawing: Any) -> str:
    """The picture's text and its viewer parts, in one short digest."""
    text = str(drawing) + "\n\0\n" + "\0".join(drawing.parts())
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def pictures(name: str) -> Iterator[list[str]]:
    """Per record of the sample ``name``: the digest of every position in every view."""
    for record in notation.load(str(SAMPLES / name)):
        game = notation.get_game(record.game)
        states = [game.start(record)] + [step.state for step in notation.replay(record)]
        yield [digest(game.drawing(state, **dict(view)))
               for state in states for view in VIEWS.get(game.name, [{}])]


@pytest.fixture(scope="module")
def known() -> dict[str, list[list[str]]]:
    with open(KNOWN, encoding="utf-8") as fh:
        return json.load(fh)  # type: ignore[no-any-return]


def test_every_sample_has_known_answers(known: dict[str, list[list[str]]]) -> None:
    assert sorted(known) == sample_files()


@pytest.mark.parametrize("name", sample_files())
def test_every_position_draws_as_elementtree_drew_it(
        name: str, known: dict[str, list[list[str]]]) -> None:
    for number, (now, then) in enumerate(zip(pictures(name), known[name], strict=True)):
        wrong = next((at for at, (a, b) in enumerate(zip(now, then)) if a != b), None)
        assert wrong is None and len(now) == len(then), (
            f"{name} game {number + 1}: picture {wrong} of {len(then)} differs")


# -- escaping: ElementTree as the oracle --------------------------------------------------------

def element(tag: str, attrs: dict[str, str], text: str | None) -> str:
    made = ET.Element(tag, attrs)
    made.text = text
    return ET.tostring(made, encoding="unicode")


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(title=st.text(), text=st.text(), attribute=st.text(),
       x=st.integers(-10**6, 10**6), y=st.floats(-1e6, 1e6))
def test_any_text_is_escaped_as_elementtree_escapes_it(title: str, text: str, attribute: str,
                                                      x: int, y: float) -> None:
    d = Drawing(10, 10, title)
    d.text(x, y, text, data_name=attribute, class_="label")
    viewbox, title_part, style_part, text_part = d.parts()
    assert viewbox == "0 0 10 10"
    assert title_part == element("title", {}, xml_text(title))
    assert text_part == element("text", {"x": str(x), "y": number(y),
                                         "data-name": xml_text(attribute), "class": "label"},
                                xml_text(text))
    assert text_part == shape("text", text, x=x, y=y, data_name=attribute, class_="label")
    drawn = ET.fromstring(str(d)).find("{http://www.w3.org/2000/svg}text")
    assert drawn is not None and drawn.get("data-name") == xml_text(attribute)


@settings(max_examples=100, deadline=None)
@given(names=st.lists(st.text(max_size=3), max_size=4), empty=st.booleans())
def test_groups_nest_and_split_as_elementtree_did(names: list[str], empty: bool) -> None:
    """A top-level group is split into its opening tag, its children and its close; an
    empty one (or one with only empty text) stays one short element."""
    d = Drawing(10, 10, "t")
    group = d.add("g", class_="outer")
    for name in names:
        inner = d.add("g", group, data_name=name)
        if not empty:
            d.text(0, 0, name, inner)
    built = ET.Element("g", {"class": "outer"})
    for name in names:
        made = ET.SubElement(built, "g", {"data-name": xml_text(name)})
        if not empty:
            ET.SubElement(made, "text", {"x": "0", "y": "0"}).text = xml_text(name)
    expected = ET.tostring(built, encoding="unicode")
    assert "".join(d.parts()[3:]) == expected
    assert str(d).endswith(expected + "</svg>")
    if names:
        assert d.parts()[3] == '<g class="outer">' and d.parts()[-1] == "</g>"


if __name__ == "__main__":  # rewrite the known answers
    KNOWN.parent.mkdir(parents=True, exist_ok=True)
    answers = {name: list(pictures(name)) for name in sample_files()}
    KNOWN.write_text(json.dumps(answers, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{KNOWN}: {sum(len(p) for r in answers.values() for p in r)} pictures")
