"""The HTML viewer in a real browser: Debian's headless Chromium driven by Selenium.

For each game, the viewer of a sample is opened from a file (no server, no
network), stepped with the keyboard and the buttons, and an event clicked; the
highlighted event and the picture in the page (its elements, counted by class)
are checked against the library's own drawing of that ply. A screenshot of
every game is saved in ``build/screenshots/`` to be looked at.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

import notation

from chromium import drawn, headless, shown
from conftest import ROOT, SAMPLES, invoke

pytestmark = pytest.mark.browser

SHOTS = ROOT / "build" / "screenshots"

CASES = {  # game: (sample, plies to step with the keyboard)
    "tilewe": ("tilewe/tw-sample-1.tilewe", 9),
    "flows": ("flows/flows-090.flows", 7),
    "philosophy": ("philosophy/phil-0009.philosophy", 12),
    "sanguine": ("sanguine/example-1.sanguine", 6),
    "nomic": ("nomic/example-1.nomic", 10),
}


@pytest.fixture(scope="module")
def browser():
    with headless() as driver:
        yield driver


def viewer(tmp_path: Path, sample: Path) -> str:
    out = tmp_path / f"{sample.stem}.html"
    result = invoke("render", "--html", str(sample), "-o", str(out))
    assert result.exit_code in (0, 1), result.output
    return out.resolve().as_uri()


def drawn_classes(driver) -> Counter:
    """The picture in the page: its elements by tag, class, data attributes and text."""
    return shown(driver)


def expected_classes(record, ply: int) -> Counter:
    game = notation.get_game(record.game)
    return drawn(game.svg(notation.run(record, ply).state))


def current(driver) -> tuple[str, str]:
    from selenium.webdriver.common.by import By
    highlighted = driver.find_element(By.CSS_SELECTOR, "#moves .ev.current")
    return highlighted.get_attribute("data-ply"), highlighted.text


@pytest.mark.parametrize("game_name", sorted(CASES))
def test_viewer_steps_clicks_and_draws_every_game(browser, tmp_path, game_name):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    sample, steps = CASES[game_name]
    path = SAMPLES / sample
    record = list(notation.load(str(path)))[0]
    texts = [i.text for i in record.items if hasattr(i, "event")]
    browser.get(viewer(tmp_path, path))
    assert current(browser) == ("0", "start")
    assert drawn_classes(browser) == expected_classes(record, 0)
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(steps):
        body.send_keys(Keys.ARROW_RIGHT)
    assert current(browser) == (str(steps), f"{steps}. {texts[steps - 1]}")
    assert browser.find_element(By.ID, "board").get_attribute("data-ply") == str(steps)
    assert drawn_classes(browser) == expected_classes(record, steps)
    browser.find_element(By.ID, "prev").click()
    assert current(browser)[0] == str(steps - 1)
    target = browser.find_element(By.CSS_SELECTOR, '#moves .ev[data-ply="3"]')
    target.click()
    assert current(browser) == ("3", f"3. {texts[2]}")
    assert drawn_classes(browser) == expected_classes(record, 3)
    browser.find_element(By.ID, "last").click()
    assert current(browser)[0] == str(len(texts))
    assert drawn_classes(browser) == expected_classes(record, len(texts))
    body.send_keys(Keys.HOME)
    assert current(browser)[0] == "0"
    browser.find_element(By.ID, "next").click()
    assert current(browser)[0] == "1"
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.find_element(By.ID, "last").click()
    browser.save_screenshot(str(SHOTS / f"{game_name}.png"))
    assert (SHOTS / f"{game_name}.png").stat().st_size > 10_000


def test_viewer_chooses_among_the_games_of_a_file(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    path = SAMPLES / "philosophy" / "random-4p-two-games.philosophy"
    records = list(notation.load(str(path)))
    browser.get(viewer(tmp_path, path))
    chooser = Select(browser.find_element(By.ID, "chooser"))
    # each game by what tells it from the other (its Round), not by its place alone
    assert [o.text for o in chooser.options] == ["1. Round 1", "2. Round 2"]
    assert browser.find_element(By.ID, "shown").text == ""  # the page has every game
    chooser.select_by_index(1)
    second = [i.text for i in records[1].items if hasattr(i, "event")]
    shown = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#moves .ev")][1:]
    assert shown == [f"{n}. {t}" for n, t in enumerate(second, 1)]
    assert current(browser)[0] == "0"
    assert drawn_classes(browser) == expected_classes(records[1], 0)


def test_viewer_of_part_of_an_archive_says_which_games_it_holds(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    path = SAMPLES / "tilewe" / "random-4p-three-games.tilewe"
    records = list(notation.load(str(path)))
    out = tmp_path / "part.html"
    result = invoke("render", "--html", str(path), "--index", "2", "--max-games", "1",
                    "-o", str(out))
    assert result.exit_code == 0, result.output
    browser.get(out.resolve().as_uri())
    assert browser.find_element(By.ID, "shown").text.startswith("showing game 2 of 3;")
    chooser = Select(browser.find_element(By.ID, "chooser"))
    assert [o.text for o in chooser.options] == [
        "2. Round 2 \u2014 4 players \u2014 seed 7"]  # one game: its tags, the first three
    assert drawn_classes(browser) == expected_classes(records[1], 0)


def test_viewer_of_an_invalid_record_shows_the_error_at_its_event(browser, tmp_path):
    from selenium.webdriver.common.by import By
    text = (SAMPLES / "tilewe" / "tw-sample-1.tilewe").read_text()
    bad = tmp_path / "bad.tilewe"
    bad.write_text(text.replace("3. N5w-d1t1", "3. N5w-d1a1"))
    record = notation.parse(bad.read_text(), "tilewe")[0]
    browser.get(viewer(tmp_path, bad))
    error = browser.find_element(By.ID, "error")
    assert error.is_displayed() and "N5w-d1a1" in error.text
    assert browser.find_element(By.ID, "board").get_attribute("data-ply") == "2"
    assert drawn_classes(browser) == expected_classes(record, 2)
    marked = browser.find_element(By.CSS_SELECTOR, "#moves .ev.bad")
    assert marked.text == "3. N5w-d1a1"
    beside = browser.find_element(By.CSS_SELECTOR, "#moves .ev.bad + .errmsg")
    assert "off the board" in beside.text  # the message at its event
    browser.find_element(By.ID, "first").click()
    assert not error.is_displayed()
    marked.click()
    assert error.is_displayed()
    browser.save_screenshot(str(tmp_path / "invalid.png"))


TREE = """[Game "tilewe"]
[Players "2"]

1. W5n-a1a1!? $14 {[%clk 0:01:30] [%eval 0.3] sharp} 2. I2n-a1t1
(2. O1n-a1t1 {also fine} 3. F5e-a2d4) (2. I2e-b1t1? (2. I3n-a1t1)) 3. F5e-a2d4 4. O1n-a1s3
"""


def classes_of(svg: str) -> Counter:
    """A picture's elements as :func:`drawn_classes` reads them from the page."""
    rows = []
    for e in ET.fromstring(svg).iter():
        tag = e.tag.split("}")[1]
        if tag in ("svg", "style"):
            continue
        data = " ".join(f"{k}={v}" for k, v in sorted(e.attrib.items()) if k.startswith("data-"))
        text = (e.text or "") if tag in ("text", "title") else ""
        rows.append("|".join([tag, e.get("class") or "", data, text]))
    return Counter(rows)


def after(record, *path: str) -> Counter:
    """The library's picture of the position after ``path`` from the record's start."""
    position = notation.Position.from_record(record, 0)
    for event in path:
        position.push(event)
    return classes_of(position.game.svg(position.state))


def test_viewer_walks_into_and_out_of_variations(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    path = tmp_path / "tree.tilewe"
    path.write_text(TREE)
    (record,) = notation.parse(TREE)
    browser.get(viewer(tmp_path, path))
    body = browser.find_element(By.TAG_NAME, "body")
    where = browser.find_element(By.ID, "where")
    # the move list: variations in place, glyphs, $N and the comment's commands
    first = browser.find_element(By.CSS_SELECTOR, '#moves .ev[data-ply="1"]')
    assert [n.text for n in first.find_elements(By.CLASS_NAME, "nag")] == ["!?", "$14"]
    commands = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "#moves .cmd")]
    assert commands == ["clk 0:01:30", "eval 0.3"]
    assert browser.find_element(By.CSS_SELECTOR, "#moves .comment").text == "sharp"
    blocks = browser.find_elements(By.CSS_SELECTOR, "#moves > div.var")
    assert [b.text for b in blocks] == ["( 2. O1n-a1t1 also fine 3. F5e-a2d4 )",
                                        "( 2. I2e-b1t1? ( 2. I3n-a1t1 ) )"]
    # a click on a variation's event draws its position
    blocks[0].find_elements(By.CSS_SELECTOR, ".ev")[1].click()
    assert current(browser) == ("3", "3. F5e-a2d4")
    assert drawn_classes(browser) == after(record, "W5n-a1a1", "O1n-a1t1", "F5e-a2d4")
    assert where.text == "ply 3 in variation 1 after ply 1"
    # the keys: Down into a variation, again to the next one, Up back out of each
    body.send_keys(Keys.HOME, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert current(browser) == ("2", "2. I2n-a1t1") and where.text == "ply 2 of 4"
    body.send_keys(Keys.ARROW_DOWN)
    assert current(browser) == ("2", "2. O1n-a1t1")
    assert drawn_classes(browser) == after(record, "W5n-a1a1", "O1n-a1t1")
    body.send_keys(Keys.ARROW_DOWN)
    assert current(browser) == ("2", "2. I2e-b1t1?")
    assert drawn_classes(browser) == after(record, "W5n-a1a1", "I2e-b1t1")
    body.send_keys(Keys.ARROW_DOWN)  # its own variation, one level deeper
    assert current(browser) == ("2", "2. I3n-a1t1")
    assert where.text == "ply 2 in variation 1 after ply 1 in variation 2 after ply 1"
    assert drawn_classes(browser) == after(record, "W5n-a1a1", "I3n-a1t1")
    body.send_keys(Keys.ARROW_UP)
    assert current(browser) == ("2", "2. I2e-b1t1?")
    body.send_keys(Keys.ARROW_UP)
    assert current(browser) == ("2", "2. I2n-a1t1")
    body.send_keys(Keys.ARROW_DOWN, Keys.ARROW_RIGHT)
    assert current(browser) == ("3", "3. F5e-a2d4") and where.text.endswith("variation 1 after ply 1")
    body.send_keys(Keys.ARROW_RIGHT)  # the variation's end: no further
    assert current(browser) == ("3", "3. F5e-a2d4")
    body.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    assert current(browser) == ("1", "1. W5n-a1a1!? $14")  # a variation's step back: its branch
    body.send_keys(Keys.ARROW_RIGHT)
    assert current(browser) == ("2", "2. I2n-a1t1")  # the mainline again
    body.send_keys(Keys.END)
    assert current(browser) == ("4", "4. O1n-a1s3")
    assert drawn_classes(browser) == expected_classes(record, 4)
    browser.save_screenshot(str(tmp_path / "tree.png"))


def test_viewer_shows_a_problem_in_a_variation_at_its_event(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    text = TREE.replace("3. F5e-a2d4)", "3. F5e-a2a1)")  # blue's own corner: taken
    path = tmp_path / "bad-tree.tilewe"
    path.write_text(text)
    (record,) = notation.parse(text)
    (problem,) = notation.run(record).problems
    browser.get(viewer(tmp_path, path))
    error = browser.find_element(By.ID, "error")
    marked = browser.find_element(By.CSS_SELECTOR, "#moves div.var .ev.bad")
    assert current(browser) == ("3", "3. F5e-a2a1")  # the page opens at the problem
    assert error.is_displayed() and problem.message in error.text
    assert "variation 1 after ply 1" in error.text
    assert drawn_classes(browser) == after(record, "W5n-a1a1", "O1n-a1t1")  # before it
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_UP)  # the mainline has no problem
    assert current(browser) == ("2", "2. I2n-a1t1") and not error.is_displayed()
    body.send_keys(Keys.ARROW_DOWN)
    assert error.is_displayed()  # the problem is next on this line
    marked.click()
    assert current(browser) == ("3", "3. F5e-a2a1") and error.is_displayed()
    browser.find_element(By.ID, "last").click()  # the line's last position: before it
    assert current(browser) == ("2", "2. O1n-a1t1")
